package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tailscale.com/control/controlclient"
	"tailscale.com/net/netmon"
	"tailscale.com/net/tsdial"
	"tailscale.com/tailcfg"
	"tailscale.com/types/key"
	"tailscale.com/types/logger"
	"tailscale.com/types/netmap"
	"tailscale.com/types/views"
	"tailscale.com/util/eventbus"
	"tailscale.com/wgengine/filter"
)

// simNode is one simulated machine: its own machine, node and disco keys, a controlclient.Direct that keeps
// everything in memory, and the peer list it has built from the map stream.
type simNode struct {
	index    int
	machine  key.MachinePrivate
	direct   *controlclient.Direct
	run      *run
	sampled  bool // light mode: this node decodes its maps and keeps a peer list (see light.go)
	disco    key.DiscoPublic
	hostinfo *tailcfg.Hostinfo

	bytesIn  atomic.Int64 // wire bytes read from the server, Noise and HTTP included
	bytesOut atomic.Int64

	connsMu sync.Mutex
	conns   map[net.Conn]struct{} // open TCP connections to the server, closed for a mass reconnect

	mu        sync.Mutex
	selfID    tailcfg.NodeID
	peers     map[tailcfg.NodeID][]netip.AddrPort // peer -> endpoints, as the client library reports them
	gotMap    bool                                // a map arrived since the last poll started
	complete  bool                                // holds all its expected peers since the last poll started
	pollStart time.Time
	failures  int                // map streams that broke in a row, for the back-off
	endpoints []tailcfg.Endpoint // what the node reports, for light mode's map requests
	pollGen   int                // counts map sessions started and stopped, so a stale retry does nothing

	pollCancel context.CancelFunc
	pollDone   chan error
}

// firstEndpoint is the endpoint node i reports when it joins, from the benchmarking range 198.18.0.0/15
// (RFC 2544). It is data for the server to pass on; nothing ever dials it.
func firstEndpoint(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i >> 8), byte(i)}), 41641)
}

func newSimNode(r *run, i int, netMon *netmon.Monitor, bus *eventbus.Bus) (*simNode, error) {
	n := &simNode{index: i, machine: key.NewMachine(), run: r, conns: map[net.Conn]struct{}{},
		peers: map[tailcfg.NodeID][]netip.AddrPort{}, sampled: r.sampled(i), disco: key.NewDisco().Public()}
	logf := logger.Discard
	if r.verbose {
		logf = logger.WithPrefix(r.logf, fmt.Sprintf("node %d: ", i))
	}
	// A Dialer built around our own dial function: the library's system dials (the /key fetch and the ts2021
	// connection) all go through n.dial.
	dialer := tsdial.NewFromFuncForDebug(logf, n.dial)
	dialer.SetNetMon(netMon)
	logID := make([]byte, 32)
	rand.Read(logID)
	hi := &tailcfg.Hostinfo{
		Hostname:     fmt.Sprintf("%s-%d", r.hostPrefix, i),
		OS:           "linux",
		IPNVersion:   "loadgen",
		BackendLogID: hex.EncodeToString(logID),
		GoArch:       "amd64",
		NetInfo:      &tailcfg.NetInfo{PreferredDERP: 999},
	}
	d, err := controlclient.NewDirect(controlclient.Options{
		ServerURL:            r.serverURL,
		AuthKey:              r.authKeys[i%len(r.authKeys)],
		GetMachinePrivateKey: func() (key.MachinePrivate, error) { return n.machine, nil },
		Hostinfo:             hi,
		DiscoPublicKey:       n.disco,
		Logf:                 logf,
		Dialer:               dialer,
		Bus:                  bus,
	})
	if err != nil {
		return nil, err
	}
	n.hostinfo = hi
	n.direct = d
	n.setEndpoints([]tailcfg.Endpoint{{Addr: firstEndpoint(i), Type: tailcfg.EndpointSTUN}})
	return n, nil
}

// setEndpoints sets what the node reports as its endpoints, in the client library and for light mode.
func (n *simNode) setEndpoints(eps []tailcfg.Endpoint) {
	n.mu.Lock()
	n.endpoints = eps
	n.mu.Unlock()
	n.direct.SetEndpoints(eps)
}

// dial is the only way the client library reaches the network: it refuses every address but the server's
// and counts the bytes of each connection.
func (n *simNode) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr != n.run.serverAddr {
		return nil, fmt.Errorf("loadgen: refusing to dial %s %s: only %s is allowed", network, addr, n.run.serverAddr)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	cc := &countingConn{Conn: c, node: n}
	n.connsMu.Lock()
	n.conns[cc] = struct{}{}
	n.connsMu.Unlock()
	return cc, nil
}

// dropConnections closes every TCP connection the node holds, as a server restart or a network cut would.
func (n *simNode) dropConnections() {
	n.connsMu.Lock()
	conns := n.conns
	n.conns = map[net.Conn]struct{}{}
	n.connsMu.Unlock()
	for c := range conns {
		c.Close()
	}
}

type countingConn struct {
	net.Conn
	node *simNode
	once sync.Once
}

func (c *countingConn) Read(p []byte) (int, error) {
	k, err := c.Conn.Read(p)
	c.node.bytesIn.Add(int64(k))
	return k, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	k, err := c.Conn.Write(p)
	c.node.bytesOut.Add(int64(k))
	return k, err
}

func (c *countingConn) Close() error {
	c.once.Do(func() {
		c.node.connsMu.Lock()
		delete(c.node.conns, c)
		c.node.connsMu.Unlock()
	})
	return c.Conn.Close()
}

// startPoll opens the streaming map session in the background. Updates arrive through the netmap updater
// methods below.
func (n *simNode) startPoll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.startPollLocked()
}

// retryPoll opens the map session again after stream gen broke, unless another was started or the session was
// stopped since: the client library allows one map session at a time.
func (n *simNode) retryPoll(gen int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.pollGen == gen && n.pollCancel != nil {
		n.startPollLocked()
	}
}

func (n *simNode) startPollLocked() {
	if n.pollCancel != nil {
		n.pollCancel() // the context of a stream that broke
	}
	ctx, cancel := context.WithCancel(context.Background())
	n.pollGen++
	gen := n.pollGen
	n.gotMap, n.complete = false, false
	n.pollStart = time.Now()
	n.pollCancel = cancel
	done := make(chan error, 1)
	n.pollDone = done
	go func() {
		var err error
		if n.run.light {
			err = n.lightPoll(ctx)
		} else {
			err = n.direct.PollNetMap(ctx, (*updater)(n))
		}
		if ctx.Err() == nil {
			n.run.pollFailed(n, err, gen)
		}
		done <- err
	}()
}

// stopPoll ends the streaming map session, cancels a pending retry, and waits until the library has let go of
// the session.
func (n *simNode) stopPoll() {
	n.mu.Lock()
	cancel, done := n.pollCancel, n.pollDone
	n.pollCancel, n.pollDone = nil, nil
	n.pollGen++
	n.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

func (n *simNode) nodeID() tailcfg.NodeID {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.selfID
}

// updater receives what controlclient decoded. It takes deltas as deltas (NetmapDeltaUpdater and friends),
// as tailscaled does, so the harness does not spend the machine's CPU rebuilding full network maps.
type updater simNode

func (u *updater) UpdateFullNetmap(nm *netmap.NetworkMap) {
	n := (*simNode)(u)
	n.mu.Lock()
	n.selfID = nm.SelfNode.ID()
	clear(n.peers)
	for _, p := range nm.Peers {
		n.peers[p.ID()] = p.Endpoints().AsSlice()
	}
	firstMap := !n.gotMap
	n.gotMap = true
	n.failures = 0
	n.mu.Unlock()
	if firstMap {
		n.run.firstMap(n)
	}
	for _, p := range nm.Peers {
		n.run.sawEndpoints(n, p.ID(), p.Endpoints())
	}
	n.checkComplete()
}

func (u *updater) UpdateNetmapDelta(muts []netmap.NodeMutation) bool {
	n := (*simNode)(u)
	type seen struct {
		id  tailcfg.NodeID
		eps views.Slice[netip.AddrPort]
	}
	var changed []seen
	n.mu.Lock()
	for _, m := range muts {
		switch m := m.(type) {
		case netmap.NodeMutationUpsert:
			n.peers[m.Node.ID()] = m.Node.Endpoints().AsSlice()
			changed = append(changed, seen{m.Node.ID(), m.Node.Endpoints()})
		case netmap.NodeMutationRemove:
			delete(n.peers, m.NodeIDBeingMutated())
		case netmap.NodeMutationEndpoints:
			n.peers[m.NodeIDBeingMutated()] = slices.Clone(m.Endpoints)
			changed = append(changed, seen{m.NodeIDBeingMutated(), views.SliceOf(m.Endpoints)})
		}
	}
	n.mu.Unlock()
	for _, c := range changed {
		n.run.sawEndpoints(n, c.id, c.eps)
	}
	n.checkComplete()
	return true
}

func (u *updater) UpdatePacketFilter(rules views.Slice[tailcfg.FilterRule], _ []filter.Match) bool {
	n := (*simNode)(u)
	n.run.sawPacketFilter(n, rules)
	return true
}

func (u *updater) UpdateUserProfiles(map[tailcfg.UserID]tailcfg.UserProfileView) bool { return true }

func (n *simNode) checkComplete() {
	n.mu.Lock()
	done := !n.complete && len(n.peers) >= n.run.expectedPeers(n.index)
	if done {
		n.complete = true
	}
	n.mu.Unlock()
	if done {
		n.run.peerListComplete(n)
	}
}

func (n *simNode) peerCount() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.peers)
}
