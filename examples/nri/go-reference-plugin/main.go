// A small NRI plugin on upstream's Go stub (github.com/containerd/nri/pkg/stub),
// used to prove isulats' runtime side against a real Go peer
// (test/integration/nri-go-plugin.test.ts). It logs the events it gets (to
// $GOPLUGIN_LOG or stdout) and adds FROM_GO=yes, an annotation and an
// RLIMIT_NOFILE to every container it sees created.
//
// Built offline by scripts/build-go-test-tools.sh (setup.sh runs it) from Debian trixie's
// golang-1.24-go and golang-github-containerd-nri-dev (NRI 0.6, the API generation that sends pod
// events through StateChange) in GOPATH mode; the test finds the binary by main.go's hash.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/containerd/nri/pkg/api"
	"github.com/containerd/nri/pkg/stub"
)

type plugin struct{ out *os.File }

func (p *plugin) log(format string, args ...interface{}) {
	fmt.Fprintf(p.out, format+"\n", args...)
}

func (p *plugin) Configure(_ context.Context, config, runtime, version string) (stub.EventMask, error) {
	p.log("Configure %s %s config=%q", runtime, version, config)
	return 0, nil
}

func (p *plugin) Synchronize(_ context.Context, pods []*api.PodSandbox, ctrs []*api.Container) ([]*api.ContainerUpdate, error) {
	p.log("Synchronize pods=%d containers=%d", len(pods), len(ctrs))
	return nil, nil
}

func (p *plugin) RunPodSandbox(_ context.Context, pod *api.PodSandbox) error {
	p.log("RunPodSandbox %s", pod.Name)
	return nil
}

func (p *plugin) CreateContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) (*api.ContainerAdjustment, []*api.ContainerUpdate, error) {
	p.log("CreateContainer %s/%s env=%v", pod.Name, ctr.Name, ctr.Env)
	adjust := &api.ContainerAdjustment{}
	adjust.AddEnv("FROM_GO", "yes")
	adjust.AddAnnotation("go-plugin", "was-here")
	adjust.AddRlimit("RLIMIT_NOFILE", 4096, 1024)
	return adjust, nil, nil
}

func (p *plugin) StartContainer(_ context.Context, pod *api.PodSandbox, ctr *api.Container) error {
	p.log("StartContainer %s/%s", pod.Name, ctr.Name)
	return nil
}

func (p *plugin) Shutdown(_ context.Context) {
	p.log("Shutdown")
}

func main() {
	var name, idx, socket string
	flag.StringVar(&name, "name", "", "plugin name")
	flag.StringVar(&idx, "idx", "", "plugin index")
	flag.StringVar(&socket, "socket", "", "runtime socket")
	flag.Parse()
	p := &plugin{out: os.Stdout}
	if f := os.Getenv("GOPLUGIN_LOG"); f != "" {
		p.out, _ = os.OpenFile(f, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	}
	opts := []stub.Option{}
	if name != "" {
		opts = append(opts, stub.WithPluginName(name))
	}
	if idx != "" {
		opts = append(opts, stub.WithPluginIdx(idx))
	}
	if socket != "" {
		opts = append(opts, stub.WithSocketPath(socket))
	}
	s, err := stub.New(p, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
}
