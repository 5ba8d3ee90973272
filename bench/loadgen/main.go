// Command loadgen runs many simulated Tailscale nodes in one process against a control server, using the
// vendor's own client library (tailscale.com/control/controlclient), and prints what the server achieved:
// registrations per second, time until every node holds its whole peer list, endpoint-change and policy-change
// propagation,
// mass-reconnect time and bytes per node. It only ever connects to the loopback server it is given.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"net/netip"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tailscale.com/net/netmon"
	"tailscale.com/tailcfg"
	"tailscale.com/types/logger"
	"tailscale.com/types/views"
	"tailscale.com/util/eventbus"
)

type run struct {
	serverURL   string
	serverAddr  string   // host:port, the only address the nodes may dial
	authKeys    []string // node i registers with authKeys[i % len(authKeys)]
	sameKeyOnly bool     // -peers same-key: a node expects as peers only the nodes registered with its key
	hostPrefix  string
	n           int
	concurrency int
	timeout     time.Duration
	verbose     bool
	logf        logger.Logf

	nodes []*simNode

	registered  atomic.Pointer[milestone]
	firstMaps   atomic.Pointer[milestone]
	complete    atomic.Pointer[milestone]
	probe       atomic.Pointer[probe]
	policyProbe atomic.Pointer[policyProbe]

	policyCmd         string // -policy-cmd: saves a policy with the marker port $LOADGEN_POLICY_PORT
	policyChanges     int
	metricsURL        string // -server-metrics: our server's /metrics, for when it had written all first maps
	serverPIDs        []int  // -server-pid: the server processes, for their CPU seconds per phase and open files
	serverFilesBefore int    // the server's open files before the join
	light             bool   // -light: nodes read map frames without building a netmap (light.go)
	changes           int    // endpoint changes to time (their origin nodes are always sampled)
	failoverCmd       string // -failover-cmd: kills one of several server instances (failover.go)

	joining     atomic.Bool
	skimming    atomic.Bool // light mode, mass reconnect: unsampled nodes do not decompress full maps (light.go)
	pollErrors  atomic.Int64
	lastPollErr atomic.Value // string
	stopping    atomic.Bool
}

func main() {
	r := &run{logf: log.New(os.Stderr, "", log.Ltime|log.Lmicroseconds).Printf}
	flag.StringVar(&r.serverURL, "server", "", "control server URL, a loopback address (e.g. http://127.0.0.1:8080)")
	authKeys := flag.String("authkey", os.Getenv("LOADGEN_AUTHKEY"), "reusable pre-auth key, or a comma-separated list: node i uses key i mod count (default $LOADGEN_AUTHKEY)")
	peers := flag.String("peers", "all", "which peers each node must get: all (every other node) or same-key (the nodes registered with its key, e.g. one key per user under an autogroup:self policy)")
	flag.IntVar(&r.n, "n", 50, "number of simulated nodes")
	flag.IntVar(&r.concurrency, "concurrency", 32, "registrations in flight at once")
	flag.DurationVar(&r.timeout, "timeout", 0, "how long each phase may take before the run fails (default 5m, or 0.3 s per node when more)")
	duration := flag.Duration("duration", 0, "how long to hold all map streams open after the measurements")
	flag.IntVar(&r.changes, "changes", 5, "endpoint changes to time, each from a different node")
	flag.BoolVar(&r.light, "light", false, fmt.Sprintf("light clients: read map frames (framing, zstd, JSON object) without building a netmap; only every %dth node and the endpoint-change origins and their first watchers decode maps and keep peer lists, and the peer-list, endpoint and policy figures are of those nodes", sampleEvery))
	serverPIDs := flag.String("server-pid", "", "the server's process id on this machine, to report its CPU seconds per phase (from /proc); several instances: their ids separated by commas (summed)")
	flag.StringVar(&r.hostPrefix, "hostname-prefix", "", "hostname prefix of the simulated nodes (default lg-<random>)")
	flag.BoolVar(&r.verbose, "v", false, "log the client library's messages")
	freePorts := flag.String("free-ports", "", "only print this many free TCP ports on 127.0.0.1 and exit (for bench/run)")
	compare := flag.Bool("compare", false, "only print a comparison table of the JSON summaries given as arguments, label=file ... (for bench/compare)")
	title := flag.String("title", "", "with -compare: the table's title")
	flag.StringVar(&r.policyCmd, "policy-cmd", "", "shell command that makes the server save a new policy whose marker rule allows UDP port $LOADGEN_POLICY_PORT to every node; with it, policy changes are timed too")
	flag.IntVar(&r.policyChanges, "policy-changes", 3, "policy changes to time (with -policy-cmd)")
	flag.StringVar(&r.failoverCmd, "failover-cmd", "", "shell command that kills one of several server instances behind the load balancer -server names (bench/run-ha); with it (and -policy-cmd) a failover phase after the hold times until every node has a live map stream again (it receives a policy change saved after the kill) and every node whose stream broke holds its peers again")
	flag.StringVar(&r.metricsURL, "server-metrics", "", "the server's Prometheus /metrics URL (loopback; our server only): the mass reconnect also reports when the server had written all first maps, from "+fullMapsMetric)
	flag.Parse()
	if *freePorts != "" {
		printFreePorts(*freePorts)
		return
	}
	if *compare {
		if err := printComparison(os.Stdout, *title, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(2)
		}
		return
	}

	var err error
	if r.serverPIDs, err = parsePIDs(*serverPIDs); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	if *authKeys != "" {
		r.authKeys = strings.Split(*authKeys, ",")
	}
	r.sameKeyOnly = *peers == "same-key"
	if *peers != "all" && *peers != "same-key" {
		fmt.Fprintln(os.Stderr, "loadgen: -peers must be all or same-key")
		os.Exit(2)
	}
	if err := r.checkFlags(); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	res, err := r.execute(*duration)
	res.print(os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: FAILED:", err)
		os.Exit(1)
	}
}

// loopbackURL parses an http URL whose host is a loopback IP address: loadgen never talks to anything else.
func loopbackURL(flagName, raw string) (*url.URL, netip.Addr, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return nil, netip.Addr{}, fmt.Errorf("%s %q: want http://<loopback address>:<port>", flagName, raw)
	}
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil || !ip.IsLoopback() {
		return nil, netip.Addr{}, fmt.Errorf("%s %q: the host must be a loopback IP address", flagName, raw)
	}
	return u, ip, nil
}

func (r *run) checkFlags() error {
	if r.serverURL == "" || len(r.authKeys) == 0 {
		return errors.New("-server and -authkey are required")
	}
	if slices.Contains(r.authKeys, "") {
		return errors.New("-authkey: empty key in the list")
	}
	if r.n < 2 {
		return errors.New("-n must be at least 2")
	}
	if r.failoverCmd != "" && r.policyCmd == "" {
		return errors.New("-failover-cmd needs -policy-cmd: a policy change after the kill shows every node's stream is live")
	}
	u, ip, err := loopbackURL("-server", r.serverURL)
	if err != nil {
		return err
	}
	if r.metricsURL != "" {
		if _, _, err := loopbackURL("-server-metrics", r.metricsURL); err != nil {
			return err
		}
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	r.serverAddr = net.JoinHostPort(ip.String(), port)
	r.serverURL = strings.TrimRight(r.serverURL, "/")
	if r.hostPrefix == "" {
		r.hostPrefix = fmt.Sprintf("lg-%04x", time.Now().UnixNano()&0xffff)
	}
	r.concurrency = max(r.concurrency, 1)
	if r.timeout <= 0 {
		r.timeout = max(5*time.Minute, time.Duration(r.n)*300*time.Millisecond)
	}
	return nil
}

func (r *run) execute(hold time.Duration) (*results, error) {
	res := &results{N: r.n, Concurrency: r.concurrency, Server: r.serverURL, AuthKeys: len(r.authKeys),
		Peers: map[bool]string{false: "all", true: "same-key"}[r.sameKeyOnly], Light: r.light}
	netMon := netmon.NewStatic()
	bus := eventbus.New()
	defer bus.Close()
	for i := range r.n {
		n, err := newSimNode(r, i, netMon, bus)
		if err != nil {
			return res, fmt.Errorf("node %d: %w", i, err)
		}
		r.nodes = append(r.nodes, n)
		if n.sampled {
			res.SampledNodes++
		}
	}
	defer r.shutdown()
	defer func() { // also for a run that stopped early
		res.takeBytes(r.nodes)
		res.LoadgenCPUS = cpuSeconds()
		res.PollErrors = r.pollErrors.Load()
		for _, n := range r.nodes {
			if n.sampled && n.peerCount() != r.expectedPeers(n.index) {
				res.WrongPeerCounts++
			}
		}
	}()

	r.serverFilesBefore, _ = serverOpenFiles(r.serverPIDs)
	phases := []struct {
		name string
		do   func(*results) error
	}{
		{"join", r.join},
		{"endpoint changes", func(res *results) error { return r.propagate(res, r.changes) }},
		{"policy changes", func(res *results) error { return r.propagatePolicy(res, r.policyCmd, r.policyChanges) }},
		{"mass reconnect", r.reconnect},
	}
	for _, p := range phases {
		clock := r.startPhase(p.name)
		err := p.do(res)
		clock.end(res)
		if err != nil {
			return res, err
		}
		// The figures so far, in case a later phase takes the machine down with loadgen (a mass reconnect at
		// N = 10,000 once did, and the join's figures were lost with it).
		if j, err := json.Marshal(res); err == nil {
			r.logf("after %s: %s", p.name, j)
		}
	}
	if hold > 0 {
		clock := r.startPhase("all streams held open")
		r.logf("holding %d map streams for %v", r.n, hold)
		time.Sleep(hold)
		clock.end(res)
	}
	if r.failoverCmd != "" {
		clock := r.startPhase("failover")
		err := r.failover(res)
		clock.end(res)
		if err != nil {
			return res, err
		}
	}
	res.Complete = true
	return res, nil
}

// join registers every node with the pre-auth key (concurrency at a time), starts each node's map stream as
// soon as it is registered, and waits until every node holds all its peers (see expectedPeers).
func (r *run) join(res *results) error {
	r.joining.Store(true)
	defer r.joining.Store(false)
	r.registered.Store(newMilestone(r.n, r.n))
	r.firstMaps.Store(newMilestone(r.n, r.n))
	r.complete.Store(newMilestone(r.sampledCount(), r.n))
	fullMapTimes := r.fullMapTimes()
	start := time.Now()
	r.logf("registering %d nodes (%d at a time) at %s", r.n, r.concurrency, r.serverURL)
	sem := make(chan struct{}, r.concurrency)
	var failMu sync.Mutex
	var failures []string
	for _, n := range r.nodes {
		go func() {
			sem <- struct{}{}
			err := r.login(n)
			<-sem
			if err != nil {
				failMu.Lock()
				failures = append(failures, fmt.Sprintf("node %d: %v", n.index, err))
				failMu.Unlock()
				r.registered.Load().fail()
				return
			}
			r.registered.Load().hit(n.index, start)
			n.startPoll()
		}()
	}
	reg := r.registered.Load()
	if !r.await("registration", reg) || reg.failed.Load() > 0 {
		failMu.Lock()
		defer failMu.Unlock()
		if len(failures) == 0 {
			return fmt.Errorf("%d of %d nodes registered within %v", reg.count.Load(), r.n, r.timeout)
		}
		return fmt.Errorf("%d of %d nodes registered; first failures: %s", reg.count.Load(), r.n,
			strings.Join(failures[:min(len(failures), 3)], "; "))
	}
	regTime := reg.elapsed(start)
	res.RegistrationS = regTime.Seconds()
	res.RegistrationsPerSec = float64(r.n) / regTime.Seconds()
	if !r.await("initial peer lists", r.complete.Load()) {
		return r.incomplete("initial peer lists")
	}
	c := r.complete.Load()
	res.AllPeersS = c.elapsed(start).Seconds()
	res.AllPeersAfterLastRegS = (c.elapsed(start) - regTime).Seconds()
	res.FirstMapP50MS, res.FirstMapP99MS, res.FirstMapMaxMS = r.firstMaps.Load().sinceStartPercentiles()
	res.JoinServerFullMapsWithinS = r.fullMapsWithinS(fullMapTimes)
	res.JoinLoadgenCPUS = cpuSeconds()
	res.takeJoinBytes(r.nodes)
	return nil
}

func (r *run) login(n *simNode) error {
	var err error
	for attempt := range 3 {
		if attempt > 0 {
			time.Sleep(time.Second)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var authURL string
		authURL, err = n.direct.TryLogin(ctx, 0)
		cancel()
		if err == nil && authURL != "" {
			return fmt.Errorf("the server asks for an interactive login (%s): is the auth key valid and reusable?", authURL)
		}
		if err == nil {
			return nil
		}
	}
	return err
}

// propagate has `changes` different nodes report a new endpoint, one after another, with a lite map update as
// tailscaled sends it, and times how long each peer takes to see it.
func (r *run) propagate(res *results, changes int) error {
	var times spread
	for k := range changes {
		origin := r.nodes[r.origin(k)]
		addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 19, byte(k >> 8), byte(k)}), uint16(40000+k))
		watchers := r.watchers(origin.index)
		if watchers == 0 {
			return fmt.Errorf("endpoint change %d: node %d has no peers to watch it (use fewer keys)", k+1, origin.index)
		}
		p := &probe{origin: origin.nodeID(), originIndex: origin.index, addr: addr, seen: newMilestone(watchers, r.n)}
		r.probe.Store(p)
		served, err := r.watchServer(deltasMetric, watchers)
		if err != nil {
			return err
		}
		origin.setEndpoints([]tailcfg.Endpoint{{Addr: addr, Type: tailcfg.EndpointSTUN}})
		p.seen.start = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
		err = origin.direct.SendUpdate(ctx)
		cancel()
		if err != nil {
			return fmt.Errorf("endpoint update from node %d: %w", origin.index, err)
		}
		if !r.await(fmt.Sprintf("endpoint change %d/%d", k+1, changes), p.seen) {
			return fmt.Errorf("endpoint change %d: only %d of %d peers saw it within %v", k+1,
				p.seen.count.Load(), watchers, r.timeout)
		}
		times.add(p.seen)
		res.PropagationServerMaxMS = serverMaxMS(res.PropagationServerMaxMS, served)
		r.probe.Store(nil)
		time.Sleep(200 * time.Millisecond)
	}
	res.Changes = changes
	res.PropagationP50MS, res.PropagationP99MS, res.PropagationMaxMS, res.PropagationAllPeersP50MS = times.figures()
	return nil
}

// reconnect ends every map stream and closes every connection, then has all nodes dial and poll again at the
// same moment, as after a server restart, and times until each has its first map and full peer list.
func (r *run) reconnect(res *results) error {
	r.logf("closing all %d map streams and connections", r.n)
	parallel(r.nodes, func(n *simNode) { n.stopPoll(); n.dropConnections() })
	r.awaitServerDisconnects()
	before := sumBytesIn(r.nodes)
	r.firstMaps.Store(newMilestone(r.n, r.n))
	r.complete.Store(newMilestone(r.sampledCount(), r.n))
	fullMapTimes := r.fullMapTimes()
	start := time.Now()
	r.firstMaps.Load().start, r.complete.Load().start = start, start
	served, err := r.watchServer(fullMapsMetric, r.n)
	if err != nil {
		return err
	}
	r.skimming.Store(true)
	defer r.skimming.Store(false)
	for _, n := range r.nodes {
		go n.startPoll()
	}
	if !r.await("first maps after reconnect", r.firstMaps.Load()) {
		return r.incomplete("first maps after reconnect")
	}
	if !r.await("peer lists after reconnect", r.complete.Load()) {
		return r.incomplete("peer lists after reconnect")
	}
	if d, ok := served.result(); ok {
		res.ReconnectServerWroteS = d.Seconds()
	}
	res.ReconnectServerFullMapsWithinS = r.fullMapsWithinS(fullMapTimes)
	res.ReconnectFirstMapS = r.firstMaps.Load().elapsed(start).Seconds()
	res.ReconnectAllPeersS = r.complete.Load().elapsed(start).Seconds()
	res.ReconnectFirstMapP50MS, res.ReconnectFirstMapP99MS, _ = r.firstMaps.Load().sinceStartPercentiles()
	res.ReconnectBytesInPerNode = float64(sumBytesIn(r.nodes)-before) / float64(r.n)
	return nil
}

// awaitServerDisconnects waits until the server has closed the connections loadgen dropped, as a restarted server
// would have none, so that the stampede is not also counted against the server's open-file limit beside
// connections it is still closing. It watches the server's open files (-server-pid) fall back to what it held
// before the join, for at most a minute; without -server-pid it waits 2 s.
func (r *run) awaitServerDisconnects() {
	if _, ok := serverOpenFiles(r.serverPIDs); !ok {
		time.Sleep(2 * time.Second)
		return
	}
	start := time.Now()
	limit := r.serverFilesBefore + 50
	for {
		open, _ := serverOpenFiles(r.serverPIDs)
		if open <= limit || time.Since(start) > time.Minute {
			r.logf("the server holds %d open files %.1f s after the disconnect (%d before the join)",
				open, time.Since(start).Seconds(), r.serverFilesBefore)
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// expectedPeers is how many peers node i must hold: every other node, or (-peers same-key) the other nodes
// registered with its pre-auth key.
func (r *run) expectedPeers(i int) int {
	if !r.sameKeyOnly {
		return r.n - 1
	}
	k := len(r.authKeys)
	size := r.n / k
	if i%k < r.n%k {
		size++
	}
	return size - 1
}

// origin is the node whose endpoint change k is.
func (r *run) origin(k int) int { return (k * r.n / max(r.changes, 1)) % r.n }

// sampled tells whether node i decodes its maps and keeps a peer list: every node in full mode; in light mode
// every sampleEvery-th node, each endpoint-change origin (its own node ID comes from its maps) and the next node
// with the origin's key (a peer of it under either -peers, so every change has a sampled watcher).
func (r *run) sampled(i int) bool {
	if !r.light || i%sampleEvery == 0 {
		return true
	}
	for k := range r.changes {
		if o := r.origin(k); i == o || i == o+len(r.authKeys) {
			return true
		}
	}
	return false
}

func (r *run) sampledCount() int {
	c := 0
	for i := range r.n {
		if r.sampled(i) {
			c++
		}
	}
	return c
}

// watchers is how many sampled nodes must see an endpoint change of node o: its sampled peers.
func (r *run) watchers(o int) int {
	c := 0
	for i := range r.n {
		if i != o && r.sampled(i) && (!r.sameKeyOnly || i%len(r.authKeys) == o%len(r.authKeys)) {
			c++
		}
	}
	return c
}

func (r *run) peersWanted() string {
	if !r.sameKeyOnly {
		return fmt.Sprintf("%d each", r.n-1)
	}
	return fmt.Sprintf("those with the same key, %d to %d each", r.expectedPeers(r.n-1), r.expectedPeers(0))
}

func (r *run) incomplete(what string) error {
	least, most := r.n, 0
	for _, n := range r.nodes {
		if !n.sampled {
			continue
		}
		c := n.peerCount()
		least, most = min(least, c), max(most, c)
	}
	msg := fmt.Sprintf("%s: %d of %d nodes hold all their peers (%s) after %v (peer counts from %d to %d)",
		what, r.complete.Load().count.Load(), r.n, r.peersWanted(), r.timeout, least, most)
	if e, ok := r.lastPollErr.Load().(string); ok {
		msg += "; last map stream error: " + e
	}
	return errors.New(msg)
}

// await waits for m, printing progress every few seconds, and reports whether it was reached in time.
func (r *run) await(what string, m *milestone) bool {
	deadline := time.After(r.timeout)
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-m.done:
			return true
		case <-deadline:
			return false
		case <-tick.C:
			r.logf("%s: %d/%d (registered %d, first maps %d, complete peer lists %d, map stream errors %d)",
				what, m.count.Load(), m.target, r.registered.Load().count.Load(), r.firstMaps.Load().count.Load(),
				r.complete.Load().count.Load(), r.pollErrors.Load())
		}
	}
}

// firstMap counts a node's first map since its stream opened. While joining, the per-node time runs from the
// start of the node's (last) stream; after a mass reconnect, from the moment all nodes dialled again.
func (r *run) firstMap(n *simNode) {
	var since time.Time
	if r.joining.Load() {
		n.mu.Lock()
		since = n.pollStart
		n.mu.Unlock()
	}
	r.firstMaps.Load().hit(n.index, since)
}

func (r *run) peerListComplete(n *simNode) { r.complete.Load().hit(n.index, time.Time{}) }

func (r *run) sawEndpoints(n *simNode, id tailcfg.NodeID, eps views.Slice[netip.AddrPort]) {
	p := r.probe.Load()
	if p == nil || id != p.origin || n.index == p.originIndex || !eps.ContainsFunc(func(a netip.AddrPort) bool { return a == p.addr }) {
		return
	}
	p.seen.hit(n.index, time.Time{})
}

// pollFailed notes a map stream that ended without being asked to, and opens it again after a back-off, as
// tailscaled does: doubling from 1 s up to 30 s, with jitter, started over once a map arrives.
func (r *run) pollFailed(n *simNode, err error, gen int) {
	r.pollErrors.Add(1)
	r.lastPollErr.Store(fmt.Sprintf("node %d: %v", n.index, err))
	if r.verbose || r.pollErrors.Load() <= 5 {
		r.logf("node %d: map stream ended: %v", n.index, err)
	}
	if r.stopping.Load() {
		return
	}
	n.mu.Lock()
	n.failures++
	wait := min(time.Second<<min(n.failures-1, 5), 30*time.Second)
	n.mu.Unlock()
	wait = wait/2 + time.Duration(rand.Int64N(int64(wait/2)))
	go func() {
		time.Sleep(wait)
		if !r.stopping.Load() {
			n.retryPoll(gen)
		}
	}()
}

func (r *run) shutdown() {
	r.stopping.Store(true)
	parallel(r.nodes, func(n *simNode) {
		n.stopPoll()
		n.direct.Close()
	})
}

func parallel(nodes []*simNode, f func(*simNode)) {
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Go(func() { f(n) })
	}
	wg.Wait()
}

// probe is one endpoint change being watched for: which node reported which new endpoint, and when.
type probe struct {
	origin      tailcfg.NodeID
	originIndex int
	addr        netip.AddrPort
	seen        *milestone
}

// cpuSeconds is the CPU time this process has used so far (user + system), to tell the harness's own share
// of a machine it shares with the server.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
