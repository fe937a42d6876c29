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
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

func forwardErrorCount() int {
	forwardErrors.Lock()
	defer forwardErrors.Unlock()
	return len(forwardErrors.list)
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
		c.Close()
		if err != nil {
			// A remote port that refused closes our connection with our bytes unread, so a reset can
			// reach us before client-go has logged the error stream's reason: wait for it a little.
			for t := 0; t < 40 && forwardErrorCount() == 0; t++ {
				time.Sleep(50 * time.Millisecond)
			}
		}
		// Otherwise client-go reports before it closes our connection, so the list is complete here.
		forwardErrors.Lock()
		if len(forwardErrors.list) > 0 {
			fail("port forward, connection %d: %s", i, strings.Join(forwardErrors.list, "; "))
		}
		forwardErrors.Unlock()
		check(err, "read")
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

// ---- Benchmark modes: run, lifecycle, teardown (CRI) and floor (no daemon). ----

func uuid4() string {
	b := make([]byte, 16)
	_, err := rand.Read(b)
	check(err, "uuid")
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// kubeletPod is a RunPodSandbox config shaped as kubelet's (cgroupfs driver, burstable pod) but
// with no cgroup parent, so each runtime puts the pod where it does by default. The log
// directory is made first, as kubelet does.
func kubeletPod(prefix, label, logRoot string) *runtimeapi.PodSandboxConfig {
	uid := uuid4()
	name := fmt.Sprintf("%s-%s-%s", prefix, uid[:10], uid[24:29])
	ns := "default"
	cfg := &runtimeapi.PodSandboxConfig{
		Metadata: &runtimeapi.PodSandboxMetadata{Name: name, Uid: uid, Namespace: ns},
		Hostname: name,
		DnsConfig: &runtimeapi.DNSConfig{
			Servers:  []string{"10.96.0.10"},
			Searches: []string{ns + ".svc.cluster.local", "svc.cluster.local", "cluster.local"},
			Options:  []string{"ndots:5"},
		},
		PortMappings: []*runtimeapi.PortMapping{{Protocol: runtimeapi.Protocol_TCP, ContainerPort: 8080}},
		Labels: map[string]string{
			"app": prefix, "io.kubernetes.pod.name": name, "io.kubernetes.pod.namespace": ns,
			"io.kubernetes.pod.uid": uid, "pod-template-hash": "7d9f8b6c5d", labelKey: label,
		},
		Annotations: map[string]string{
			"kubernetes.io/config.seen": time.Now().Format(time.RFC3339Nano), "kubernetes.io/config.source": "api",
		},
		Linux: &runtimeapi.LinuxPodSandboxConfig{
			SecurityContext: &runtimeapi.LinuxSandboxSecurityContext{
				NamespaceOptions: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_POD, Pid: runtimeapi.NamespaceMode_CONTAINER, Ipc: runtimeapi.NamespaceMode_POD},
				Seccomp:          &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault},
			},
			Resources: &runtimeapi.LinuxContainerResources{CpuPeriod: 100000, CpuQuota: 50000, CpuShares: 102, MemoryLimitInBytes: 128 << 20},
			Sysctls:   map[string]string{},
		},
	}
	if logRoot != "" {
		cfg.LogDirectory = filepath.Join(logRoot, fmt.Sprintf("%s_%s_%s", ns, name, uid))
		check(os.MkdirAll(cfg.LogDirectory, 0o755), "pod log directory")
	}
	return cfg
}

var kubeletMaskedPaths = []string{"/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
	"/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware", "/sys/devices/virtual/powercap"}
var kubeletReadonlyPaths = []string{"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"}

// kubeletContainer is a CreateContainer config shaped as kubelet's for a container of pod.
func kubeletContainer(pod *runtimeapi.PodSandboxConfig, name, image string, argv []string) *runtimeapi.ContainerConfig {
	m := pod.Metadata
	return &runtimeapi.ContainerConfig{
		Metadata: &runtimeapi.ContainerMetadata{Name: name},
		Image:    &runtimeapi.ImageSpec{Image: image, UserSpecifiedImage: image},
		Command:  argv,
		Envs: []*runtimeapi.KeyValue{{Key: "KUBERNETES_SERVICE_HOST", Value: "10.96.0.1"}, {Key: "KUBERNETES_SERVICE_PORT", Value: "443"},
			{Key: "KUBERNETES_PORT", Value: "tcp://10.96.0.1:443"}},
		Labels: map[string]string{
			"io.kubernetes.container.name": name, "io.kubernetes.pod.name": m.Name, "io.kubernetes.pod.namespace": m.Namespace,
			"io.kubernetes.pod.uid": m.Uid, labelKey: pod.Labels[labelKey],
		},
		Annotations: map[string]string{
			"io.kubernetes.container.hash": "c6d4a2b1", "io.kubernetes.container.restartCount": "0",
			"io.kubernetes.container.terminationMessagePath": "/dev/termination-log", "io.kubernetes.container.terminationMessagePolicy": "File",
			"io.kubernetes.pod.terminationGracePeriod": "30",
		},
		LogPath: name + "/0.log",
		Linux: &runtimeapi.LinuxContainerConfig{
			Resources: &runtimeapi.LinuxContainerResources{
				CpuPeriod: 100000, CpuQuota: 50000, CpuShares: 102, MemoryLimitInBytes: 128 << 20, OomScoreAdj: 998,
				HugepageLimits: []*runtimeapi.HugepageLimit{{PageSize: "2MB", Limit: 0}, {PageSize: "1GB", Limit: 0}},
			},
			SecurityContext: &runtimeapi.LinuxContainerSecurityContext{
				NamespaceOptions: &runtimeapi.NamespaceOption{Network: runtimeapi.NamespaceMode_POD, Pid: runtimeapi.NamespaceMode_CONTAINER, Ipc: runtimeapi.NamespaceMode_POD},
				Seccomp:          &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault},
				MaskedPaths:      kubeletMaskedPaths,
				ReadonlyPaths:    kubeletReadonlyPaths,
				RunAsUser:        &runtimeapi.Int64Value{Value: 0},
			},
		},
	}
}

// callTime is one timed call: its name, duration and start/end as Unix epoch seconds (so
// execs seen by strace can be attributed to it).
type callTime struct {
	Call  string  `json:"call"`
	Ms    float64 `json:"ms"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

func epoch(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// timed runs fn and records it under call.
func timed(calls *[]callTime, call string, fn func() error) error {
	t0 := time.Now()
	err := fn()
	t1 := time.Now()
	*calls = append(*calls, callTime{call, float64(t1.Sub(t0).Microseconds()) / 1000, epoch(t0), epoch(t1)})
	if err != nil {
		return fmt.Errorf("%s: %w", call, err)
	}
	return nil
}

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

// summary gives the median and p90 of each call's durations.
func summary(byCall map[string][]float64) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for call, xs := range byCall {
		out[call] = map[string]float64{"median": quantile(xs, 0.5), "p90": quantile(xs, 0.9), "count": float64(len(xs))}
	}
	return out
}

type podRecord struct {
	PodID       string     `json:"podId"`
	ContainerID string     `json:"containerId"`
	Calls       []callTime `json:"calls"`
	Error       string     `json:"error,omitempty"`
}

// runOne does what `crictl run` does for one pod: RunPodSandbox, CreateContainer, StartContainer.
func runOne(rt runtimeapi.RuntimeServiceClient, o benchOpts, i int) podRecord {
	rec := podRecord{}
	pod := kubeletPod(fmt.Sprintf("%s-%d", o.prefix, i), o.label, o.logRoot)
	ctx, cancel := rpcCtx()
	defer cancel()
	err := timed(&rec.Calls, "RunPodSandbox", func() error {
		res, err := rt.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: pod, RuntimeHandler: o.handler})
		if err == nil {
			rec.PodID = res.PodSandboxId
		}
		return err
	})
	if err == nil {
		err = timed(&rec.Calls, "CreateContainer", func() error {
			res, err := rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: rec.PodID, SandboxConfig: pod,
				Config: kubeletContainer(pod, "app", o.image, o.argv)})
			if err == nil {
				rec.ContainerID = res.ContainerId
			}
			return err
		})
	}
	if err == nil {
		err = timed(&rec.Calls, "StartContainer", func() error {
			_, err := rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: rec.ContainerID})
			return err
		})
	}
	if err != nil {
		rec.Error = err.Error()
	}
	return rec
}

type benchOpts struct {
	n, k                          int
	prefix, label, image, handler string
	logRoot                       string
	argv                          []string
	gap                           time.Duration
	pull                          bool
}

// benchRun starts n pods with one container each at once, one goroutine per pod on one
// connection (as kubelet's pod workers), and prints wall time, per-call medians and per-pod records.
// benchRepeat times k calls of one read RPC on one connection, one after the other (as kubelet's
// PLEG relist and probes make them), and prints each call's time and their median: the per-RPC cost
// without a process start or a dial in it.
func benchRepeat(rt runtimeapi.RuntimeServiceClient, img runtimeapi.ImageServiceClient, rpc string, k int, pod, id, image string) {
	calls := map[string]func(ctx context.Context) error{
		"Version":          func(ctx context.Context) error { _, err := rt.Version(ctx, &runtimeapi.VersionRequest{}); return err },
		"Status":           func(ctx context.Context) error { _, err := rt.Status(ctx, &runtimeapi.StatusRequest{}); return err },
		"ListPodSandbox":   func(ctx context.Context) error { _, err := rt.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{}); return err },
		"ListContainers":   func(ctx context.Context) error { _, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{}); return err },
		"PodSandboxStatus": func(ctx context.Context) error { _, err := rt.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: pod}); return err },
		"ContainerStatus":  func(ctx context.Context) error { _, err := rt.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id}); return err },
		"ImageStatus": func(ctx context.Context) error {
			_, err := img.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: image}})
			return err
		},
		"ListImages": func(ctx context.Context) error { _, err := img.ListImages(ctx, &runtimeapi.ListImagesRequest{}); return err },
	}
	call, ok := calls[rpc]
	if !ok {
		fail("repeat: unknown -rpc %q", rpc)
	}
	ms := make([]float64, 0, k)
	for i := 0; i < k; i++ {
		ctx, cancel := rpcCtx()
		t0 := time.Now()
		err := call(ctx)
		ms = append(ms, msSince(t0))
		cancel()
		check(err, rpc)
	}
	sorted := append([]float64(nil), ms...)
	sort.Float64s(sorted)
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	printJSON(map[string]any{"rpc": rpc, "k": k, "medianMs": median, "ms": ms})
}

func benchRun(rt runtimeapi.RuntimeServiceClient, o benchOpts) {
	recs := make([]podRecord, o.n)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := 0; i < o.n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			recs[i] = runOne(rt, o, i)
		}(i)
	}
	wg.Wait()
	wall := float64(time.Since(t0).Microseconds()) / 1000
	byCall := map[string][]float64{}
	errs, failed := map[string]int{}, 0
	for _, r := range recs {
		for _, c := range r.Calls {
			byCall[c.Call] = append(byCall[c.Call], c.Ms)
		}
		if r.Error != "" {
			errs[r.Error]++
			failed++
		}
	}
	printJSON(map[string]any{"n": o.n, "wallMs": wall, "start": epoch(t0), "failed": failed, "errors": errs,
		"calls": summary(byCall), "pods": recs})
}

// benchLifecycle runs the pod lifecycle one call at a time, k times, pausing `gap` between
// calls; prints each call's times (epochs too) and medians.
func benchLifecycle(rt runtimeapi.RuntimeServiceClient, img runtimeapi.ImageServiceClient, o benchOpts) {
	var calls []callTime
	pause := func() { time.Sleep(o.gap) }
	for it := 0; it < o.k; it++ {
		pod := kubeletPod(fmt.Sprintf("%s-%d", o.prefix, it), o.label, o.logRoot)
		ctx, cancel := rpcCtx()
		var podID, ctrID string
		step := func(call string, fn func() error) {
			check(timed(&calls, call, fn), "lifecycle")
			pause()
		}
		step("RunPodSandbox", func() error {
			res, err := rt.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: pod, RuntimeHandler: o.handler})
			if err == nil {
				podID = res.PodSandboxId
			}
			return err
		})
		step("CreateContainer", func() error {
			res, err := rt.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: podID, SandboxConfig: pod, Config: kubeletContainer(pod, "app", o.image, o.argv)})
			if err == nil {
				ctrID = res.ContainerId
			}
			return err
		})
		step("StartContainer", func() error {
			_, err := rt.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: ctrID})
			return err
		})
		step("ExecSync", func() error {
			res, err := rt.ExecSync(ctx, &runtimeapi.ExecSyncRequest{ContainerId: ctrID, Cmd: []string{"true"}, Timeout: 10})
			if err == nil && res.ExitCode != 0 {
				err = fmt.Errorf("exit code %d", res.ExitCode)
			}
			return err
		})
		// As `crictl exec`: the Exec RPC, then the SPDY stream until the command ends.
		step("Exec", func() error {
			res, err := rt.Exec(ctx, &runtimeapi.ExecRequest{ContainerId: ctrID, Cmd: []string{"echo", "hi"}, Stdout: true, Stderr: true})
			if err != nil {
				return err
			}
			exe, err := remotecommand.NewSPDYExecutor(&restclient.Config{}, "POST", streamURL(res.Url))
			if err != nil {
				return err
			}
			var out, errOut bytes.Buffer
			if err := exe.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &out, Stderr: &errOut}); err != nil {
				return err
			}
			if out.String() != "hi\n" || errOut.Len() > 0 {
				return fmt.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
			}
			return nil
		})
		step("StopContainer", func() error {
			_, err := rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: ctrID, Timeout: 0})
			return err
		})
		step("RemoveContainer", func() error {
			_, err := rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: ctrID})
			return err
		})
		step("StopPodSandbox", func() error {
			_, err := rt.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: podID})
			return err
		})
		step("RemovePodSandbox", func() error {
			_, err := rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: podID})
			return err
		})
		if o.pull {
			// The image is unused now: remove it (untimed) and time pulling it back.
			_, err := img.RemoveImage(ctx, &runtimeapi.RemoveImageRequest{Image: &runtimeapi.ImageSpec{Image: o.image}})
			check(err, "RemoveImage")
			pause()
			step("PullImage", func() error {
				_, err := img.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: o.image}})
				return err
			})
		}
		cancel()
	}
	byCall := map[string][]float64{}
	for _, c := range calls {
		byCall[c.Call] = append(byCall[c.Call], c.Ms)
	}
	printJSON(map[string]any{"iterations": o.k, "calls": summary(byCall), "timeline": calls})
}

// benchTeardown stops and removes every pod carrying the label (its containers first), all pods at once.
func benchTeardown(rt runtimeapi.RuntimeServiceClient, label string) {
	ctx, cancel := rpcCtx()
	defer cancel()
	pods, err := rt.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{Filter: &runtimeapi.PodSandboxFilter{LabelSelector: map[string]string{labelKey: label}}})
	check(err, "ListPodSandbox")
	errs := make([]string, len(pods.Items))
	var wg sync.WaitGroup
	t0 := time.Now()
	for i, p := range pods.Items {
		wg.Add(1)
		go func(i int, id string) {
			defer wg.Done()
			var calls []callTime
			err := func() error {
				ctrs, err := rt.ListContainers(ctx, &runtimeapi.ListContainersRequest{Filter: &runtimeapi.ContainerFilter{PodSandboxId: id}})
				if err != nil {
					return err
				}
				for _, c := range ctrs.Containers {
					if err := timed(&calls, "StopContainer", func() error {
						_, err := rt.StopContainer(ctx, &runtimeapi.StopContainerRequest{ContainerId: c.Id, Timeout: 0})
						return err
					}); err != nil {
						return err
					}
					if err := timed(&calls, "RemoveContainer", func() error {
						_, err := rt.RemoveContainer(ctx, &runtimeapi.RemoveContainerRequest{ContainerId: c.Id})
						return err
					}); err != nil {
						return err
					}
				}
				if err := timed(&calls, "StopPodSandbox", func() error {
					_, err := rt.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: id})
					return err
				}); err != nil {
					return err
				}
				return timed(&calls, "RemovePodSandbox", func() error {
					_, err := rt.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: id})
					return err
				})
			}()
			if err != nil {
				errs[i] = err.Error()
			}
		}(i, p.Id)
	}
	wg.Wait()
	failed := []string{}
	for _, e := range errs {
		if e != "" {
			failed = append(failed, e)
		}
	}
	printJSON(map[string]any{"pods": len(pods.Items), "wallMs": float64(time.Since(t0).Microseconds()) / 1000, "errors": failed})
	if len(failed) > 0 {
		os.Exit(1)
	}
}

// ---- floor: the same per-pod work with no daemon (netns, CNI ADD, two `runtime run -d`). ----

type floorOpts struct {
	n                                     int
	settle                                time.Duration
	prefix, runtime, runtimeRoot, dir     string
	conflist, cniBin, pauseRootfs, rootfs string
	noPause                               bool // the container joins the netns itself, as a pod without an infra container
}

type floorPod struct {
	id, uid, netns string
	mounts         []string
	started        []string
	cniResult      map[string]any
	cniDone        []int // plugins whose ADD succeeded (index into the chain, -1 = loopback)
	calls, down    []callTime
	err            string
}

// cniChain is the loopback network (as containerd's go-cni adds to every pod) then the conflist's plugins.
type cniChain struct {
	name, version string
	plugins       []map[string]any
}

func loadConflist(path string) cniChain {
	b, err := os.ReadFile(path)
	check(err, "conflist")
	var list struct {
		CniVersion string           `json:"cniVersion"`
		Name       string           `json:"name"`
		Plugins    []map[string]any `json:"plugins"`
	}
	check(json.Unmarshal(b, &list), "conflist "+path)
	return cniChain{list.Name, list.CniVersion, list.Plugins}
}

// cniExec runs one plugin as libcni does: config on stdin (with the network's name and version,
// and the previous result), the CNI_* variables in the environment; returns its stdout.
func (o floorOpts) cniExec(command string, p *floorPod, netName, version string, plugin map[string]any, prev map[string]any) (map[string]any, error) {
	conf := map[string]any{}
	for k, v := range plugin {
		conf[k] = v
	}
	conf["name"], conf["cniVersion"] = netName, version
	delete(conf, "capabilities")
	if prev != nil {
		conf["prevResult"] = prev
	}
	in, _ := json.Marshal(conf)
	cmd := exec.Command(filepath.Join(o.cniBin, plugin["type"].(string)))
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "CNI_COMMAND=" + command, "CNI_CONTAINERID=" + p.id, "CNI_NETNS=" + p.netns,
		"CNI_IFNAME=" + map[bool]string{true: "lo", false: "eth0"}[plugin["type"] == "loopback"], "CNI_PATH=" + o.cniBin,
		"CNI_ARGS=IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=" + p.id + ";K8S_POD_INFRA_CONTAINER_ID=" + p.id + ";K8S_POD_UID=" + p.uid}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("CNI %s %s: %v: %s%s", command, plugin["type"], err, out.String(), errOut.String())
	}
	if command != "ADD" {
		return nil, nil
	}
	res := map[string]any{}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("CNI ADD %s result: %v", plugin["type"], err)
	}
	return res, nil
}

var loopbackPlugin = map[string]any{"type": "loopback"}

// newNetns makes a network namespace pinned at path, in-process (as containerd's pkg/netns
// does): a locked thread unshares and bind-mounts its namespace, then ends with the goroutine.
func newNetns(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	f.Close()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread, now in the new netns, exits with us
		if err := syscall.Unshare(syscall.CLONE_NEWNET); err != nil {
			errc <- err
			return
		}
		errc <- syscall.Mount(fmt.Sprintf("/proc/self/task/%d/ns/net", syscall.Gettid()), path, "none", syscall.MS_BIND, "")
	}()
	return <-errc
}

// bundle makes an OCI bundle under dir/name: an overlay of lower (a fresh upper per container,
// as a snapshotter gives) and the spec template with args and namespaces (type → path to join).
func (o floorOpts) bundle(p *floorPod, tmpl []byte, name, lower string, args []string, ns map[string]string) (string, error) {
	b := filepath.Join(o.dir, "bundles", name)
	for _, d := range []string{"upper", "work", "rootfs"} {
		if err := os.MkdirAll(filepath.Join(b, d), 0o755); err != nil {
			return "", err
		}
	}
	rootfs := filepath.Join(b, "rootfs")
	if err := syscall.Mount("overlay", rootfs, "overlay", 0, fmt.Sprintf("lowerdir=%s,upperdir=%s/upper,workdir=%s/work", lower, b, b)); err != nil {
		return "", fmt.Errorf("overlay %s: %v", rootfs, err)
	}
	p.mounts = append(p.mounts, rootfs)
	var spec map[string]any
	if err := json.Unmarshal(tmpl, &spec); err != nil {
		return "", err
	}
	spec["root"] = map[string]any{"path": rootfs}
	proc := spec["process"].(map[string]any)
	proc["args"], proc["terminal"], proc["rlimits"] = args, false, []any{}
	if ns["uts"] != "" {
		delete(spec, "hostname")
	}
	nss := []any{}
	for _, t := range []string{"pid", "network", "ipc", "uts", "mount"} {
		e := map[string]any{"type": t}
		if ns[t] != "" {
			e["path"] = ns[t]
		}
		nss = append(nss, e)
	}
	spec["linux"].(map[string]any)["namespaces"] = nss
	out, _ := json.Marshal(spec)
	return b, os.WriteFile(filepath.Join(b, "config.json"), out, 0o644)
}

// runDetached is `runtime run -d`: it returns once the container runs; its stdio is a file, so
// nothing waits on a pipe the container holds.
func (o floorOpts) runDetached(bundle, id string, pidFile string) error {
	errFile, err := os.Create(filepath.Join(bundle, "runtime.err"))
	if err != nil {
		return err
	}
	defer errFile.Close()
	args := []string{"--root", o.runtimeRoot, "run", "-d", "--bundle", bundle}
	if pidFile != "" {
		args = append(args, "--pid-file", pidFile)
	}
	cmd := exec.Command(o.runtime, append(args, id)...)
	cmd.Stdout, cmd.Stderr = errFile, errFile
	if err := cmd.Run(); err != nil {
		msg, _ := os.ReadFile(errFile.Name())
		return fmt.Errorf("%s run %s: %v: %s", o.runtime, id, err, strings.TrimSpace(string(msg)))
	}
	return nil
}

func (o floorOpts) podUp(p *floorPod, chain cniChain, tmpl []byte) error {
	if err := timed(&p.calls, "netns", func() error { return newNetns(p.netns) }); err != nil {
		return err
	}
	err := timed(&p.calls, "CNI ADD", func() error {
		if _, err := o.cniExec("ADD", p, "cni-loopback", chain.version, loopbackPlugin, nil); err != nil {
			return err
		}
		p.cniDone = append(p.cniDone, -1)
		var prev map[string]any
		for i, plugin := range chain.plugins {
			res, err := o.cniExec("ADD", p, chain.name, chain.version, plugin, prev)
			if err != nil {
				return err
			}
			p.cniDone, prev = append(p.cniDone, i), res
		}
		p.cniResult = prev
		return nil
	})
	if err != nil {
		return err
	}
	if o.noPause {
		return timed(&p.calls, "run container", func() error { return o.runApp(p, tmpl, map[string]string{"network": p.netns}) })
	}
	pidFile := filepath.Join(o.dir, p.id+".pid")
	err = timed(&p.calls, "run pause", func() error {
		b, err := o.bundle(p, tmpl, p.id+"-pause", o.pauseRootfs, []string{"/pause"}, map[string]string{"network": p.netns})
		if err != nil {
			return err
		}
		if err := o.runDetached(b, p.id+"-pause", pidFile); err != nil {
			return err
		}
		p.started = append(p.started, p.id+"-pause")
		return nil
	})
	if err != nil {
		return err
	}
	return timed(&p.calls, "run container", func() error {
		pid, err := os.ReadFile(pidFile)
		if err != nil {
			return err
		}
		ns := func(t string) string { return fmt.Sprintf("/proc/%s/ns/%s", strings.TrimSpace(string(pid)), t) }
		return o.runApp(p, tmpl, map[string]string{"network": p.netns, "ipc": ns("ipc"), "uts": ns("uts")})
	})
}

// runApp runs the pod's container (`sleep 3600` on the busybox rootfs) joining the namespaces ns names.
func (o floorOpts) runApp(p *floorPod, tmpl []byte, ns map[string]string) error {
	b, err := o.bundle(p, tmpl, p.id+"-app", o.rootfs, []string{"sleep", "3600"}, ns)
	if err != nil {
		return err
	}
	if err := o.runDetached(b, p.id+"-app", ""); err != nil {
		return err
	}
	p.started = append(p.started, p.id+"-app")
	return nil
}

// podDown undoes whatever podUp did, containers first: `delete -f`, CNI DEL in reverse order,
// the netns, the overlays. Every step runs; the first error is returned.
func (o floorOpts) podDown(p *floorPod, chain cniChain) error {
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for i := len(p.started) - 1; i >= 0; i-- {
		id := p.started[i]
		keep(timed(&p.down, "delete -f", func() error {
			out, err := exec.Command(o.runtime, "--root", o.runtimeRoot, "delete", "-f", id).CombinedOutput()
			if err != nil {
				return fmt.Errorf("delete %s: %v: %s", id, err, out)
			}
			return nil
		}))
	}
	keep(timed(&p.down, "CNI DEL", func() error {
		var err error
		for j := len(p.cniDone) - 1; j >= 0; j-- {
			if i := p.cniDone[j]; i < 0 {
				_, e := o.cniExec("DEL", p, "cni-loopback", chain.version, loopbackPlugin, nil)
				err = errors.Join(err, e)
			} else {
				_, e := o.cniExec("DEL", p, chain.name, chain.version, chain.plugins[i], p.cniResult)
				err = errors.Join(err, e)
			}
		}
		return err
	}))
	keep(timed(&p.down, "netns remove", func() error {
		if _, err := os.Stat(p.netns); err != nil {
			return nil
		}
		_ = syscall.Unmount(p.netns, syscall.MNT_DETACH)
		return os.Remove(p.netns)
	}))
	for _, m := range p.mounts {
		keep(syscall.Unmount(m, syscall.MNT_DETACH))
	}
	return first
}

// benchFloor brings n pods up at once and prints the wall time, then takes them down at once
// (timed apart). The spec template is `runc spec`'s default, made once beforehand.
func benchFloor(o floorOpts) {
	chain := loadConflist(o.conflist)
	check(os.MkdirAll(filepath.Join(o.dir, "netns"), 0o755), "netns dir")
	tmplDir, err := os.MkdirTemp(o.dir, "spec-")
	check(err, "spec dir")
	out, err := exec.Command("runc", "spec", "--bundle", tmplDir).CombinedOutput()
	check(err, "runc spec: "+string(out))
	tmpl, err := os.ReadFile(filepath.Join(tmplDir, "config.json"))
	check(err, "spec")
	pods := make([]*floorPod, o.n)
	for i := range pods {
		id := fmt.Sprintf("%s-%d", o.prefix, i)
		pods[i] = &floorPod{id: id, uid: uuid4(), netns: filepath.Join(o.dir, "netns", id)}
	}
	each := func(fn func(p *floorPod) error) float64 {
		var wg sync.WaitGroup
		t0 := time.Now()
		for _, p := range pods {
			wg.Add(1)
			go func(p *floorPod) {
				defer wg.Done()
				if err := fn(p); err != nil && p.err == "" {
					p.err = err.Error()
				}
			}(p)
		}
		wg.Wait()
		return float64(time.Since(t0).Microseconds()) / 1000
	}
	wall := each(func(p *floorPod) error { return o.podUp(p, chain, tmpl) })
	upErrs, failed := map[string]int{}, 0
	for _, p := range pods {
		if p.err != "" {
			upErrs[p.err]++
			failed++
			p.err = ""
		}
	}
	// What runtime run -d left running asynchronously (the container's own exec) lands before
	// teardown starts when this is long enough (a trace attributes by time).
	time.Sleep(o.settle)
	down := each(func(p *floorPod) error { return o.podDown(p, chain) })
	byCall, byDown, downErrs := map[string][]float64{}, map[string][]float64{}, map[string]int{}
	recs := []map[string]any{}
	for _, p := range pods {
		for _, c := range p.calls {
			byCall[c.Call] = append(byCall[c.Call], c.Ms)
		}
		for _, c := range p.down {
			byDown[c.Call] = append(byDown[c.Call], c.Ms)
		}
		if p.err != "" {
			downErrs[p.err]++
		}
		recs = append(recs, map[string]any{"id": p.id, "calls": p.calls, "teardown": p.down})
	}
	_ = os.RemoveAll(tmplDir)
	printJSON(map[string]any{"n": o.n, "wallMs": wall, "failed": failed, "errors": upErrs, "calls": summary(byCall),
		"teardownMs": down, "teardownCalls": summary(byDown), "teardownErrors": downErrs, "pods": recs})
	if len(upErrs)+len(downErrs) > 0 {
		os.Exit(1)
	}
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go-cri-client [global flags] version|status|pull|image-status|remove-image|run-pod|run-container|run-pod-container|list|container-status|exec-sync|exec|exec-burst|attach|port-forward|stop-remove|create-container|start-container|stop-container|remove-container|run|lifecycle|teardown|floor [flags] [-- argv]")
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
		sessions  = fs.Int("n", 1, "exec-burst: sessions at once; run, floor: pods at once")
		inSize    = fs.Int("stdin-bytes", 100000, "exec-burst: bytes sent on each session's stdin")
		expect    = fs.String("expect", "", "exec-burst: the stdout each session must give")
		handler   = fs.String("handler", "", "run, lifecycle: the pods' runtime handler (empty: the runtime's default)")
		logRoot   = fs.String("log-root", "", "run, lifecycle: kubelet's pod log root (each pod gets <root>/<ns>_<name>_<uid>); empty: no log directory")
		iters     = fs.Int("k", 5, "lifecycle: iterations; repeat: calls")
		rpcName   = fs.String("rpc", "ContainerStatus", "repeat: the read RPC to time (Version, Status, ListPodSandbox, ListContainers, PodSandboxStatus, ContainerStatus, ImageStatus, ListImages)")
		gap       = fs.Duration("gap", 0, "lifecycle: pause after each call; floor: between bringing pods up and down (to tell calls apart in a trace)")
		pull      = fs.Bool("pull", false, "lifecycle: after each pod, RemoveImage (untimed) then PullImage of -image (timed)")
		rtPath    = fs.String("runtime", "runc", "floor: OCI runtime binary")
		rtRoot    = fs.String("runtime-root", "", "floor: the runtime's --root")
		workDir   = fs.String("dir", "", "floor: work dir (netns files, bundles)")
		conflist  = fs.String("conflist", "", "floor: CNI conflist")
		cniBin    = fs.String("cni-bin", "/usr/lib/cni", "floor: CNI plugin dir")
		pauseFS   = fs.String("pause-rootfs", "", "floor: rootfs of the pause container (/pause)")
		noPause   = fs.Bool("no-pause", false, "floor: no pause container; the container joins the pod's netns itself")
		rootfs    = fs.String("rootfs", "", "floor: rootfs of the container (busybox)")
		stopTO    = fs.Int64("stop-timeout", 0, "stop-container: seconds before SIGKILL")
	)
	check(fs.Parse(flag.Args()[1:]), "flags")
	argv := fs.Args()
	if cmd == "exec-burst" {
		execBurst(*id, *sessions, *inSize, strings.ReplaceAll(*expect, `\n`, "\n"), argv)
		return
	}
	if cmd == "floor" {
		benchFloor(floorOpts{n: *sessions, settle: *gap, prefix: *name, runtime: *rtPath, runtimeRoot: *rtRoot, dir: *workDir,
			conflist: *conflist, cniBin: *cniBin, pauseRootfs: *pauseFS, rootfs: *rootfs, noPause: *noPause})
		return
	}
	bench := benchOpts{n: *sessions, k: *iters, prefix: *name, label: *label, image: *image, handler: *handler, logRoot: *logRoot, argv: argv, gap: *gap, pull: *pull}
	if len(bench.argv) == 0 {
		bench.argv = []string{"sleep", "3600"}
	}
	rt, img := connect()
	switch cmd {
	case "run":
		benchRun(rt, bench)
		return
	case "lifecycle":
		benchLifecycle(rt, img, bench)
		return
	case "teardown":
		benchTeardown(rt, *label)
		return
	case "repeat":
		benchRepeat(rt, img, *rpcName, *iters, *pod, *id, *image)
		return
	}
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
