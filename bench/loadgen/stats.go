package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
	"time"
)

// milestone counts nodes reaching something (registered, first map, full peer list, seen a change) and
// remembers when each one did and when the last one did.
type milestone struct {
	target int64
	start  time.Time
	count  atomic.Int64
	failed atomic.Int64
	at     []atomic.Int64 // per node index: nanoseconds since start, 0 = not yet
	doneAt atomic.Int64
	done   chan struct{}
}

// newMilestone waits for target hits from node indexes below slots.
func newMilestone(target, slots int) *milestone {
	return &milestone{target: int64(target), start: time.Now(), at: make([]atomic.Int64, slots),
		done: make(chan struct{})}
}

// hit records node index reaching the milestone; a node counts once.
func (m *milestone) hit(index int, start time.Time) {
	if start.IsZero() {
		start = m.start
	}
	since := max(time.Since(start).Nanoseconds(), 1)
	if index >= len(m.at) || !m.at[index].CompareAndSwap(0, since) {
		return
	}
	if m.count.Add(1) == m.target {
		m.doneAt.Store(time.Now().UnixNano())
		close(m.done)
	}
}

func (m *milestone) fail() {
	if m.failed.Add(1)+m.count.Load() == m.target {
		select {
		case <-m.done:
		default:
			close(m.done)
		}
	}
}

// elapsed is the time from start until the last node reached the milestone.
func (m *milestone) elapsed(start time.Time) time.Duration {
	return time.Unix(0, m.doneAt.Load()).Sub(start)
}

func (m *milestone) durations() []time.Duration {
	var ds []time.Duration
	for i := range m.at {
		if v := m.at[i].Load(); v > 0 {
			ds = append(ds, time.Duration(v))
		}
	}
	return ds
}

func (m *milestone) sinceStartPercentiles() (p50, p99, maxMS float64) {
	ds := m.durations()
	return ms(percentile(ds, 50)), ms(percentile(ds, 99)), ms(percentile(ds, 100))
}

// percentile is the nearest-rank percentile of ds (p = 100 gives the maximum).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(float64(len(s))*p/100+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func sumBytesIn(nodes []*simNode) int64 {
	var t int64
	for _, n := range nodes {
		t += n.bytesIn.Load()
	}
	return t
}

// results is what one run measured; the JSON names are what scripts read.
type results struct {
	Complete              bool    `json:"complete"` // false: the run stopped early, later figures are zero
	Server                string  `json:"server"`
	N                     int     `json:"n"`
	Concurrency           int     `json:"concurrency"`
	AuthKeys              int     `json:"auth_keys"`
	Peers                 string  `json:"peers"` // all, or same-key (see -peers)
	Light                 bool    `json:"light"` // -light: figures of peer lists and changes are of the sampled nodes
	SampledNodes          int     `json:"sampled_nodes"`
	RegistrationS         float64 `json:"registration_s"`
	RegistrationsPerSec   float64 `json:"registrations_per_s"`
	AllPeersS             float64 `json:"all_peer_lists_s"`
	AllPeersAfterLastRegS float64 `json:"all_peer_lists_after_last_registration_s"`
	FirstMapP50MS         float64 `json:"first_map_p50_ms"`
	FirstMapP99MS         float64 `json:"first_map_p99_ms"`
	FirstMapMaxMS         float64 `json:"first_map_max_ms"`
	// From our server's histogram of request-to-written times (-server-metrics): the bucket bound within which it
	// wrote every full map of the phase. Left out when not measured.
	JoinServerFullMapsWithinS float64 `json:"join_server_full_maps_within_s,omitempty"`
	Changes                   int     `json:"endpoint_changes"`
	PropagationP50MS          float64 `json:"propagation_p50_ms"`
	PropagationP99MS          float64 `json:"propagation_p99_ms"`
	PropagationMaxMS          float64 `json:"propagation_max_ms"`
	PropagationAllPeersP50MS  float64 `json:"propagation_all_peers_p50_ms"`
	// Policy-change figures are left out of the JSON when not measured (no -policy-cmd).
	PolicyChanges       int     `json:"policy_changes,omitempty"`
	PolicyP50MS         float64 `json:"policy_propagation_p50_ms,omitempty"`
	PolicyP99MS         float64 `json:"policy_propagation_p99_ms,omitempty"`
	PolicyMaxMS         float64 `json:"policy_propagation_max_ms,omitempty"`
	PolicyAllNodesP50MS float64 `json:"policy_propagation_all_nodes_p50_ms,omitempty"`
	// From our server's own counters (-server-metrics): the slowest change's time until the server had written it
	// to every stream that must get it. Left out when not measured.
	PropagationServerMaxMS float64 `json:"propagation_server_wrote_all_max_ms,omitempty"`
	PolicyServerMaxMS      float64 `json:"policy_propagation_server_wrote_all_max_ms,omitempty"`
	ReconnectFirstMapS     float64 `json:"reconnect_all_first_maps_s"`
	ReconnectAllPeersS     float64 `json:"reconnect_all_peer_lists_s"`
	// From the server's own counter (-server-metrics); left out when not measured.
	ReconnectServerWroteS          float64 `json:"reconnect_server_wrote_all_first_maps_s,omitempty"`
	ReconnectServerFullMapsWithinS float64 `json:"reconnect_server_full_maps_within_s,omitempty"`
	ReconnectFirstMapP50MS         float64 `json:"reconnect_first_map_p50_ms"`
	ReconnectFirstMapP99MS         float64 `json:"reconnect_first_map_p99_ms"`
	// The failover phase (-failover-cmd); left out when not run. Times from the start of the kill command.
	Failover                   bool    `json:"failover,omitempty"`
	FailoverS                  float64 `json:"failover_s,omitempty"` // every node has the change made after the kill, and every moved node holds its peers
	FailoverMovedNodes         int     `json:"failover_moved_nodes,omitempty"`
	FailoverChangeAllNodesS    float64 `json:"failover_change_all_nodes_s,omitempty"`
	FailoverMovedFirstMapsS    float64 `json:"failover_moved_first_maps_s,omitempty"`
	FailoverMovedFirstMapP50MS float64 `json:"failover_moved_first_map_p50_ms,omitempty"`
	FailoverMovedFirstMapP99MS float64 `json:"failover_moved_first_map_p99_ms,omitempty"`
	FailoverMovedAllPeersS     float64 `json:"failover_moved_all_peer_lists_s,omitempty"`
	FailoverChangeAttempts     int     `json:"failover_change_attempts,omitempty"` // the policy command's runs until it succeeded
	JoinBytesInPerNode         float64 `json:"join_bytes_in_per_node"`
	ReconnectBytesInPerNode    float64 `json:"reconnect_bytes_in_per_node"`
	BytesInPerNode             float64 `json:"bytes_in_per_node"`
	BytesInMaxNode             int64   `json:"bytes_in_max_node"`
	BytesOutPerNode            float64 `json:"bytes_out_per_node"`
	PollErrors                 int64   `json:"map_stream_errors"`
	WrongPeerCounts            int     `json:"nodes_with_wrong_peer_count"` // at the end: more or fewer peers than expected
	JoinLoadgenCPUS            float64 `json:"loadgen_cpu_join_s"`
	LoadgenCPUS                float64 `json:"loadgen_cpu_s"`
	Phases                     []phase `json:"phases,omitempty"`
}

func (r *results) takeJoinBytes(nodes []*simNode) {
	r.JoinBytesInPerNode = float64(sumBytesIn(nodes)) / float64(len(nodes))
}

func (r *results) takeBytes(nodes []*simNode) {
	var out int64
	for _, n := range nodes {
		in := n.bytesIn.Load()
		r.BytesInMaxNode = max(r.BytesInMaxNode, in)
		out += n.bytesOut.Load()
	}
	r.BytesInPerNode = float64(sumBytesIn(nodes)) / float64(len(nodes))
	r.BytesOutPerNode = float64(out) / float64(len(nodes))
}

func (r *results) print(w io.Writer) {
	row := func(name, value string) { fmt.Fprintf(w, "  %-44s %s\n", name, value) }
	fmt.Fprintf(w, "loadgen: %d nodes against %s (tailscale.com/control/controlclient)\n", r.N, r.Server)
	if r.Light {
		fmt.Fprintf(w, "  light clients: %d nodes decode their maps; peer-list and change figures are theirs\n", r.SampledNodes)
	}
	if r.AuthKeys > 1 {
		fmt.Fprintf(w, "  %d pre-auth keys, node i uses key i mod %d; peers expected: %s\n", r.AuthKeys, r.AuthKeys, r.Peers)
	}
	if !r.Complete {
		fmt.Fprintln(w, "  (the run stopped early: figures after the failed phase are zero)")
	}
	row("registrations per second", fmt.Sprintf("%.1f  (%d nodes in %.2f s, %d at a time)", r.RegistrationsPerSec, r.N, r.RegistrationS, r.Concurrency))
	row("all nodes hold all peers", fmt.Sprintf("%.2f s after the first registration (%.2f s after the last)", r.AllPeersS, r.AllPeersAfterLastRegS))
	row("first map after opening the map stream", fmt.Sprintf("p50 %.0f ms  p99 %.0f ms  max %.0f ms", r.FirstMapP50MS, r.FirstMapP99MS, r.FirstMapMaxMS))
	if r.JoinServerFullMapsWithinS > 0 {
		row("first map written by the server", fmt.Sprintf("every one within %g s of its request  (its own histogram)", r.JoinServerFullMapsWithinS))
	}
	row(fmt.Sprintf("endpoint change seen by a peer (%d changes)", r.Changes), fmt.Sprintf("p50 %.1f ms  p99 %.1f ms  max %.1f ms", r.PropagationP50MS, r.PropagationP99MS, r.PropagationMaxMS))
	row("endpoint change seen by all peers", fmt.Sprintf("p50 %.1f ms", r.PropagationAllPeersP50MS))
	if r.PropagationServerMaxMS > 0 {
		row("endpoint change written to all peers' streams", fmt.Sprintf("max %.0f ms  (the server's own count, polled every 100 ms)", r.PropagationServerMaxMS))
	}
	if r.PolicyChanges > 0 {
		row(fmt.Sprintf("policy change seen by a node (%d changes)", r.PolicyChanges), fmt.Sprintf("p50 %.1f ms  p99 %.1f ms  max %.1f ms", r.PolicyP50MS, r.PolicyP99MS, r.PolicyMaxMS))
		row("policy change seen by all nodes", fmt.Sprintf("p50 %.1f ms", r.PolicyAllNodesP50MS))
		if r.PolicyServerMaxMS > 0 {
			row("policy change written to all streams", fmt.Sprintf("max %.0f ms  (the server's own count, polled every 100 ms)", r.PolicyServerMaxMS))
		}
	} else {
		row("policy change propagation", "not measured (no -policy-cmd)")
	}
	row("mass reconnect: all first maps", fmt.Sprintf("%.2f s  (per node p50 %.0f ms, p99 %.0f ms)", r.ReconnectFirstMapS, r.ReconnectFirstMapP50MS, r.ReconnectFirstMapP99MS))
	row("mass reconnect: all peer lists", fmt.Sprintf("%.2f s", r.ReconnectAllPeersS))
	if r.ReconnectServerWroteS > 0 {
		row("mass reconnect: server wrote all first maps", fmt.Sprintf("%.2f s  (its own count, polled every 100 ms)", r.ReconnectServerWroteS))
	}
	if r.ReconnectServerFullMapsWithinS > 0 {
		row("mass reconnect: first map written", fmt.Sprintf("every one within %g s of its request  (the server's histogram)", r.ReconnectServerFullMapsWithinS))
	}
	if r.Failover {
		row("failover: all nodes live again", fmt.Sprintf("%.2f s after the kill  (%d nodes moved)", r.FailoverS, r.FailoverMovedNodes))
		row("failover: change after the kill, all nodes", fmt.Sprintf("%.2f s  (saved at attempt %d)", r.FailoverChangeAllNodesS, r.FailoverChangeAttempts))
		row("failover: moved nodes' first maps", fmt.Sprintf("all %.2f s  (per node p50 %.0f ms, p99 %.0f ms)", r.FailoverMovedFirstMapsS, r.FailoverMovedFirstMapP50MS, r.FailoverMovedFirstMapP99MS))
		row("failover: moved nodes hold all peers", fmt.Sprintf("%.2f s", r.FailoverMovedAllPeersS))
	}
	row("bytes received per node", fmt.Sprintf("%s total (max %s); join %s, reconnect %s", size(r.BytesInPerNode), size(float64(r.BytesInMaxNode)), size(r.JoinBytesInPerNode), size(r.ReconnectBytesInPerNode)))
	row("bytes sent per node", size(r.BytesOutPerNode))
	row("map streams that broke", fmt.Sprint(r.PollErrors))
	row("nodes with more or fewer peers than expected", fmt.Sprintf("%d (at the end)", r.WrongPeerCounts))
	row("loadgen's own CPU", fmt.Sprintf("%.1f s (%.1f s until all peer lists were complete)", r.LoadgenCPUS, r.JoinLoadgenCPUS))
	printPhases(w, r.Phases)
	j, _ := json.Marshal(r)
	fmt.Fprintf(w, "%s\n", j)
}

func size(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// spread collects how long each watcher took to see a change, over several changes, and how long until all had it.
type spread struct {
	each []time.Duration // every watcher of every change
	all  []time.Duration // per change: until the last watcher
}

// add takes the times of one change, reached milestone m.
func (s *spread) add(m *milestone) {
	s.all = append(s.all, m.elapsed(m.start))
	s.each = append(s.each, m.durations()...)
}

// figures are p50, p99 and max over every watcher, and the median over changes of the time until all had it (ms).
func (s *spread) figures() (p50, p99, most, allP50 float64) {
	return ms(percentile(s.each, 50)), ms(percentile(s.each, 99)), ms(percentile(s.each, 100)), ms(percentile(s.all, 50))
}
