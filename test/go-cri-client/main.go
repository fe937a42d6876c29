// go-cri-client: a small CRI client of ours on the Kubernetes Go libraries that kubelet and
// crictl are made of (k8s.io/cri-api runtime/v1 over grpc-go, client-go's remotecommand and
// portforward), so test/integration/daemon-go-client.test.ts can drive a CRI runtime the way
// they do. Built by scripts/build-go-test-tools.sh (GOPATH mode on Debian trixie's sources).
//
// Usage: go-cri-client [-endpoint unix:///x.sock] [-authority A] [-dial path|unix] [-timeout 60s] CMD [flags] [-- argv]
// Output is JSON (one line) or the streamed bytes; exit 0 on success, the remote exit code for
// exec and exec-sync, 1 with "go-cri-client: ..." on stderr for any other failure.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/client-go/transport/spdy"
	utilexec "k8s.io/client-go/util/exec"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

var (
	endpoint  = flag.String("endpoint", "unix:///run/isulats/isulats.sock", "CRI endpoint (unix://PATH)")
	authority = flag.String("authority", "", "HTTP/2 :authority; empty leaves grpc-go's default (what crictl before 1.26 sends)")
	dialMode  = flag.String("dial", "path", "path: dial the socket path with our own unix dialer, as crictl and kubelet do; unix: grpc-go's unix:// resolver")
	timeout   = flag.Duration("timeout", 60*time.Second, "per-RPC timeout")
)

const labelKey = "go-cri-client"

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "go-cri-client: "+format+"\n", args...)
	os.Exit(1)
}

func check(err error, what string) {
	if err != nil {
		fail("%s: %v", what, err)
	}
}

func printJSON(v any) {
	b, err := json.Marshal(v)
	check(err, "json")
	fmt.Println(string(b))
}

func connect() (runtimeapi.RuntimeServiceClient, runtimeapi.ImageServiceClient) {
	conn, err := dial()
	check(err, "connect "+*endpoint)
	return runtimeapi.NewRuntimeServiceClient(conn), runtimeapi.NewImageServiceClient(conn)
}

// dial opens one connection as crictl and kubelet do, bounded by -timeout.
func dial() (*grpc.ClientConn, error) {
	path := strings.TrimPrefix(*endpoint, "unix://")
	if path == *endpoint {
		fail("endpoint must be unix://PATH, not %q", *endpoint)
	}
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16 << 20)),
	}
	if *authority != "" {
		opts = append(opts, grpc.WithAuthority(*authority))
	}
	target := *endpoint
	if *dialMode == "path" {
		// The target is the bare path (passthrough resolver) and the dialer opens the socket.
		target = path
		opts = append(opts, grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", addr)
		}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	//nolint:staticcheck // DialContext + WithBlock is what crictl and kubelet's remote client call.
	return grpc.DialContext(ctx, target, append(opts, grpc.WithBlock())...)
}

func msSince(t0 time.Time) float64 {
	return float64(time.Since(t0).Microseconds()) / 1000
}

func rpcCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), *timeout)
}

func podConfig(name, label string) *runtimeapi.PodSandboxConfig {
	return &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: name, Uid: "uid-" + name, Namespace: "go-cri-client"},
		Hostname: name,
		Labels:   map[string]string{labelKey: label},
		Linux:    &runtimeapi.LinuxPodSandboxConfig{},
	}
}

// The sandbox config CreateContainer wants, rebuilt from the pod's status (as kubelet would
// resend the one it ran the pod with).
func podConfigOf(rt runtimeapi.RuntimeServiceClient, podID string) *runtimeapi.PodSandboxConfig {
	ctx, cancel := rpcCtx()
	defer cancel()
	st, err := rt.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: podID})
	check(err, "PodSandboxStatus")
	cfg := podConfig(st.Status.Metadata.Name, st.Status.Labels[labelKey])
	cfg.Metadata = st.Status.Metadata
	return cfg
}

func runPod(rt runtimeapi.RuntimeServiceClient, name, label string) string {
	ctx, cancel := rpcCtx()
	defer cancel()
	res, err := rt.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: podConfig(name, label)})
	check(err, "RunPodSandbox")
	return res.PodSandboxId
}

func runContainer(rt runtimeapi.RuntimeServiceClient, podID string, pod *runtimeapi.PodSandboxConfig, name, image string, stdin, tty bool, argv []string) string {
	ctx, cancel := rpcCtx()
	defer cancel()
	res, err := rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{
		PodSandboxId:  podID,
		SandboxConfig: pod,
		Config: &runtimeapi.ContainerConfig{
			Metadata: &runtimeapi.ContainerMetadata{Name: name},
			Image:    &runtimeapi.ImageSpec{Image: image},
			Command:  argv,
			Stdin:    stdin,
			Tty:      tty,
			Labels:   pod.Labels,
			Linux:    &runtimeapi.LinuxContainerConfig{},
		},
	})
	check(err, "CreateContainer")
	_, err = rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: res.ContainerId})
	check(err, "StartContainer")
	return res.ContainerId
}

// streamURL makes the URL a runtime returned usable, as crictl does: http when no scheme.
func streamURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	check(err, "stream URL "+raw)
	if u.Scheme == "" {
		u.Scheme = "http"
	}
	if u.Host == "" {
		fail("stream URL %q has no host", raw)
	}
	return u
}

// oneResize reports one terminal size, then nothing until the stream is over.
type oneResize struct {
	size *remotecommand.TerminalSize
	done chan struct{}
}

func (q *oneResize) Next() *remotecommand.TerminalSize {
	if s := q.size; s != nil {
		q.size = nil
		return s
	}
	<-q.done
	return nil
}

func parseSize(s string) *remotecommand.TerminalSize {
	w, h, ok := strings.Cut(s, "x")
	width, err1 := strconv.Atoi(w)
	height, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil {
		fail("resize must be COLSxROWS, not %q", s)
	}
	return &remotecommand.TerminalSize{Width: uint16(width), Height: uint16(height)}
}

// stream runs an exec or attach session over SPDY (kubelet's and crictl's default) or
// WebSocket, and exits with the remote exit code when the runtime reports one.
func stream(raw, transport string, stdin, tty bool, resize string) {
	u := streamURL(raw)
	cfg := &restclient.Config{TLSClientConfig: restclient.TLSClientConfig{Insecure: true}}
	var exe remotecommand.Executor
	var err error
	switch transport {
	case "spdy":
		exe, err = remotecommand.NewSPDYExecutor(cfg, "POST", u)
	case "websocket":
		exe, err = remotecommand.NewWebSocketExecutor(cfg, "GET", u.String())
	default:
		fail("transport must be spdy or websocket, not %q", transport)
	}
	check(err, "executor")
	opts := remotecommand.StreamOptions{Stdout: os.Stdout, Tty: tty}
	if stdin {
		opts.Stdin = os.Stdin
	}
	if !tty {
		opts.Stderr = os.Stderr
	}
	done := make(chan struct{})
	if resize != "" {
		opts.TerminalSizeQueue = &oneResize{size: parseSize(resize), done: done}
	}
	err = exe.StreamWithContext(context.Background(), opts)
	close(done)
	var exit utilexec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitStatus())
	}
	check(err, "stream")
}

// forwardErrors collects what client-go reports about a forwarded connection: it only logs
// them (runtime.HandleError) before closing that connection, so without this a refused port
// would look like an empty reply.
var forwardErrors struct {
	sync.Mutex
	list []string
}

func portForward(raw string, port int, payload string, conns int) {
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, _ string, _ ...any) {
		forwardErrors.Lock()
		defer forwardErrors.Unlock()
		forwardErrors.list = append(forwardErrors.list, err.Error())
	}}
	u := streamURL(raw)
	rt, upgrader, err := spdy.RoundTripperFor(&restclient.Config{})
	check(err, "spdy round tripper")
	dialer := spdy.NewDialer(upgrader, &http.Client{Transport: rt}, "POST", u)
	stop, ready := make(chan struct{}), make(chan struct{})
	pf, err := portforward.NewOnAddresses(dialer, []string{"127.0.0.1"}, []string{fmt.Sprintf("0:%d", port)}, stop, ready, io.Discard, os.Stderr)
	check(err, "port forwarder")
	errc := make(chan error, 1)
	go func() { errc <- pf.ForwardPorts() }()
	select {
	case <-ready:
	case err := <-errc:
		fail("port forward: %v", err)
	case <-time.After(*timeout):
		fail("port forward: not ready after %v", *timeout)
	}
	ports, err := pf.GetPorts()
	check(err, "forwarded ports")
	local := fmt.Sprintf("127.0.0.1:%d", ports[0].Local)
	// Each connection is a new pair of streams on the one SPDY connection.
	replies := []string{}
	for i := 0; i < conns; i++ {
		c, err := net.DialTimeout("tcp", local, 5*time.Second)
		check(err, "dial "+local)
		_ = c.SetDeadline(time.Now().Add(*timeout))
		_, err = io.WriteString(c, strings.ReplaceAll(payload, "{i}", strconv.Itoa(i)))
		check(err, "write")
		check(c.(*net.TCPConn).CloseWrite(), "half-close")
		b, err := io.ReadAll(c)
		check(err, "read")
		c.Close()
		// client-go reports before it closes our connection, so the list is complete here.
		forwardErrors.Lock()
		if len(forwardErrors.list) > 0 {
			fail("port forward, connection %d: %s", i, strings.Join(forwardErrors.list, "; "))
		}
		forwardErrors.Unlock()
		replies = append(replies, string(b))
	}
	close(stop)
	if err := <-errc; err != nil {
		fail("port forward: %v", err)
	}
	printJSON(map[string]any{"localPort": ports[0].Local, "replies": replies})
}

// execBurst runs n exec sessions at once, each as one crictl process would (its own connection,
// the Exec RPC under -timeout, then the stream over SPDY): stdin of `size` bytes into argv,
// whose stdout must be `expect`. Meanwhile ListPodSandbox runs every 100 ms on a connection of
// its own under the same deadline. Prints counts, sorted latencies and error classes as JSON.
func execBurst(id string, n, size int, expect string, argv []string) {
	unaryConn, err := dial()
	check(err, "connect "+*endpoint)
	unary := runtimeapi.NewRuntimeServiceClient(unaryConn)
	payload := bytes.Repeat([]byte("x"), size)
	type outcome struct {
		ms  float64
		err string
	}
	results := make([]outcome, n)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	unaryDone := make(chan struct{})
	var unaryCalls, unaryFailed int
	var unaryMax float64
	go func() {
		defer close(unaryDone)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			t0 := time.Now()
			ctx, cancel := rpcCtx()
			_, err := unary.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{})
			cancel()
			ms := float64(time.Since(t0).Microseconds()) / 1000
			unaryCalls++
			if err != nil {
				unaryFailed++
			}
			if ms > unaryMax {
				unaryMax = ms
			}
		}
	}()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t0 := time.Now()
			err := execOnce(id, argv, payload, expect)
			results[i] = outcome{float64(time.Since(t0).Microseconds()) / 1000, ""}
			if err != nil {
				results[i].err = err.Error()
			}
		}(i)
	}
	wg.Wait()
	close(stop)
	<-unaryDone
	errs := map[string]int{}
	latencies := []float64{}
	for _, r := range results {
		if r.err != "" {
			errs[r.err]++
		} else {
			latencies = append(latencies, r.ms)
		}
	}
	sort.Float64s(latencies)
	printJSON(map[string]any{"ok": len(latencies), "failed": n - len(latencies), "errors": errs, "latenciesMs": latencies,
		"unary": map[string]any{"calls": unaryCalls, "failed": unaryFailed, "maxMs": unaryMax}})
}

// execOnce is one session of execBurst; errors are classed by the step that failed.
func execOnce(id string, argv []string, stdin []byte, expect string) error {
	conn, err := dial()
	if err != nil {
		return fmt.Errorf("connect: %v", err)
	}
	defer conn.Close()
	ctx, cancel := rpcCtx()
	defer cancel()
	res, err := runtimeapi.NewRuntimeServiceClient(conn).Exec(ctx, &runtimeapi.ExecRequest{ContainerId: id, Cmd: argv, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return fmt.Errorf("Exec: %v", err)
	}
	u, err := url.Parse(res.Url)
	if err != nil {
		return fmt.Errorf("stream URL: %v", err)
	}
	exe, err := remotecommand.NewSPDYExecutor(&restclient.Config{}, "POST", u)
	if err != nil {
		return fmt.Errorf("executor: %v", err)
	}
	var stdout, stderr bytes.Buffer
	sctx, scancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer scancel()
	if err := exe.StreamWithContext(sctx, remotecommand.StreamOptions{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr}); err != nil {
		return fmt.Errorf("stream: %v", err)
	}
	if stdout.String() != expect {
		return fmt.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	return nil
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go-cri-client [global flags] version|status|pull|image-status|remove-image|run-pod|run-container|run-pod-container|create-container|start-container|stop-container|remove-container|list|container-status|exec-sync|exec|exec-burst|attach|port-forward|stop-remove [flags] [-- argv]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	cmd := flag.Arg(0)
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	var (
		image     = fs.String("image", "", "image reference")
		name      = fs.String("name", "gocri", "pod or container name")
		label     = fs.String("label", "", "value of the go-cri-client label (set on pods; list filters on it)")
		pod       = fs.String("pod", "", "pod sandbox ID")
		id        = fs.String("id", "", "container ID")
		stdin     = fs.Bool("stdin", false, "pass our stdin")
		tty       = fs.Bool("tty", false, "allocate a TTY")
		resize    = fs.String("resize", "", "COLSxROWS sent once as the terminal size")
		transport = fs.String("transport", "spdy", "exec/attach transport: spdy or websocket (port-forward is SPDY only, as in kubelet and crictl)")
		port      = fs.Int("port", 0, "pod port to forward")
		payload   = fs.String("send", "", "bytes to send on each forwarded connection ({i} = its index)")
		conns     = fs.Int("connections", 1, "forwarded connections to open one after the other")
		execTO    = fs.Int64("exec-timeout", 0, "ExecSync timeout in seconds (0: none)")
		sessions  = fs.Int("n", 1, "exec-burst: sessions at once")
		inSize    = fs.Int("stdin-bytes", 100000, "exec-burst: bytes sent on each session's stdin")
		expect    = fs.String("expect", "", "exec-burst: the stdout each session must give")
		stopTO    = fs.Int64("stop-timeout", 0, "stop-container: seconds before SIGKILL")
	)
	check(fs.Parse(flag.Args()[1:]), "flags")
	argv := fs.Args()
	if cmd == "exec-burst" {
		execBurst(*id, *sessions, *inSize, strings.ReplaceAll(*expect, `\n`, "\n"), argv)
		return
	}
	rt, img := connect()
	ctx, cancel := rpcCtx()
	defer cancel()

	switch cmd {
	case "version":
		res, err := rt.Version(ctx, &runtimeapi.VersionRequest{})
		check(err, "Version")
		printJSON(res)
	case "status":
		res, err := rt.Status(ctx, &runtimeapi.StatusRequest{})
		check(err, "Status")
		conds := map[string]bool{}
		for _, c := range res.Status.Conditions {
			conds[c.Type] = c.Status
		}
		printJSON(conds)
		if !conds[runtimeapi.RuntimeReady] || !conds[runtimeapi.NetworkReady] {
			os.Exit(3)
		}
	case "pull":
		res, err := img.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: *image}})
		check(err, "PullImage")
		printJSON(map[string]string{"imageRef": res.ImageRef})
	case "image-status":
		res, err := img.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: *image}})
		check(err, "ImageStatus")
		if res.Image == nil {
			printJSON(map[string]any{"found": false})
			return
		}
		printJSON(map[string]any{"found": true, "id": res.Image.Id, "repoTags": res.Image.RepoTags, "size": res.Image.Size_})
	case "remove-image":
		_, err := img.RemoveImage(ctx, &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: *image}})
		check(err, "RemoveImage")
	case "run-pod":
		printJSON(map[string]string{"podId": runPod(rt, *name, *label)})
	case "run-container":
		printJSON(map[string]string{"containerId": runContainer(rt, *pod, podConfigOf(rt, *pod), *name, *image, *stdin, *tty, argv)})
	case "run-pod-container":
		podID := runPod(rt, *name, *label)
		ctrID := runContainer(rt, podID, podConfigOf(rt, podID), *name, *image, *stdin, *tty, argv)
		printJSON(map[string]string{"podId": podID, "containerId": ctrID})
	// One lifecycle RPC each, its own latency as "ms" (dial and process start left out).
	case "create-container":
		cfg := podConfigOf(rt, *pod)
		t0 := time.Now()
		res, err := rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: *pod, SandboxConfig: cfg, Config: &runtimeapi.ContainerConfig{
			Metadata: &runtimeapi.ContainerMetadata{Name: *name}, Image: &runtimeapi.ImageSpec{Image: *image}, Command: argv,
			Labels: cfg.Labels, Linux: &runtimeapi.LinuxContainerConfig{},
		}})
		check(err, "CreateContainer")
		printJSON(map[string]any{"containerId": res.ContainerId, "ms": msSince(t0)})
	case "start-container":
		t0 := time.Now()
		_, err := rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: *id})
		check(err, "StartContainer")
		printJSON(map[string]any{"ms": msSince(t0)})
	case "stop-container":
		t0 := time.Now()
		_, err := rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: *id, Timeout: *stopTO})
		check(err, "StopContainer")
		printJSON(map[string]any{"ms": msSince(t0)})
	case "remove-container":
		t0 := time.Now()
		_, err := rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: *id})
		check(err, "RemoveContainer")
		printJSON(map[string]any{"ms": msSince(t0)})
	case "list":
		var filter map[string]string
		if *label != "" {
			filter = map[string]string{labelKey: *label}
		}
		pods, err := rt.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{LabelSelector: filter}})
		check(err, "ListPodSandbox")
		ctrs, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{LabelSelector: filter}})
		check(err, "ListContainers")
		type item struct{ ID, Name, State, PodID string }
		out := map[string][]item{"pods": {}, "containers": {}}
		for _, p := range pods.Items {
			out["pods"] = append(out["pods"], item{p.Id, p.Metadata.Name, p.State.String(), ""})
		}
		for _, c := range ctrs.Containers {
			out["containers"] = append(out["containers"], item{c.Id, c.Metadata.Name, c.State.String(), c.PodSandboxId})
		}
		printJSON(out)
	case "container-status":
		t0 := time.Now()
		res, err := rt.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: *id})
		check(err, "ContainerStatus")
		ms := msSince(t0)
		s := res.Status
		printJSON(map[string]any{"state": s.State.String(), "exitCode": s.ExitCode, "image": s.Image.GetImage(), "imageRef": s.ImageRef, "createdAt": strconv.FormatInt(s.CreatedAt, 10), "ms": ms})
	case "exec-sync":
		res, err := rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: *id, Cmd: argv, Timeout: *execTO})
		check(err, "ExecSync")
		os.Stdout.Write(res.Stdout)
		os.Stderr.Write(res.Stderr)
		os.Exit(int(res.ExitCode))
	case "exec":
		res, err := rt.Exec(ctx, &runtimeapi.ExecRequest{ContainerId: *id, Cmd: argv, Tty: *tty, Stdin: *stdin, Stdout: true, Stderr: !*tty})
		check(err, "Exec")
		stream(res.Url, *transport, *stdin, *tty, *resize)
	case "attach":
		res, err := rt.Attach(ctx, &runtimeapi.AttachRequest{ContainerId: *id, Tty: *tty, Stdin: *stdin, Stdout: true, Stderr: !*tty})
		check(err, "Attach")
		stream(res.Url, *transport, *stdin, *tty, *resize)
	case "port-forward":
		res, err := rt.PortForward(ctx, &runtimeapi.PortForwardRequest{PodSandboxId: *pod, Port: []int32{int32(*port)}})
		check(err, "PortForward")
		portForward(res.Url, *port, *payload, *conns)
	case "stop-remove":
		// As kubelet tears a pod down: its containers first, then the sandbox.
		ctrs, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{PodSandboxId: *pod}})
		check(err, "ListContainers")
		for _, c := range ctrs.Containers {
			_, err = rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: c.Id, Timeout: 2})
			check(err, "StopContainer "+c.Id)
			_, err = rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: c.Id})
			check(err, "RemoveContainer "+c.Id)
		}
		_, err = rt.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: *pod})
		check(err, "StopPodSandbox")
		_, err = rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: *pod})
		check(err, "RemovePodSandbox")
		printJSON(map[string]any{"removedContainers": len(ctrs.Containers)})
	default:
		flag.Usage()
		os.Exit(2)
	}
}
