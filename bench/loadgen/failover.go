package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// The failover phase (-failover-cmd, after the hold): with several server instances behind a load balancer, the
// command kills one of them (bench/run-ha kills the one holding more map streams with SIGKILL). Its nodes' streams
// break; each opens a new one after the client's back-off (0.5 to 1 s, as pollFailed waits), which the balancer
// sends to a surviving instance. Right after the command, the policy command saves a new marker policy (through
// the balancer, so on a survivor): every node proves it has a live map stream on a survivor by receiving it, in
// light mode unsampled nodes too (they look for the marker port in the decompressed frame, see takeFrame). The
// phase ends when every node has the marker and every node whose stream broke (it "moved") and decodes its maps
// holds all its peers again. The clock starts when the kill command starts.

// failoverMarkerPort is the marker of the policy saved after the kill: after those of the policy phase.
func (r *run) failoverMarkerPort() uint16 { return uint16(50000 + r.policyChanges) }

func (r *run) failover(res *results) error {
	gens := make([]int, r.n) // each node's map session before the kill: a node whose session changed moved
	for i, n := range r.nodes {
		n.mu.Lock()
		gens[i] = n.pollGen
		n.mu.Unlock()
	}
	port := r.failoverMarkerPort()
	p := &policyProbe{port: port, everyNode: true, needle: markerNeedle(port), seen: newMilestone(r.n, r.n)}
	first, complete := newMilestone(r.n, r.n), newMilestone(r.n, r.n)
	start := time.Now()
	p.seen.start, first.start, complete.start = start, start, start
	r.firstMaps.Store(first)
	r.complete.Store(complete)
	r.policyProbe.Store(p)
	defer r.policyProbe.Store(nil)
	r.logf("failover: running %s", r.failoverCmd)
	if err := r.shell(r.failoverCmd, nil); err != nil {
		return fmt.Errorf("failover: -failover-cmd failed: %w", err)
	}
	// The balancer may still pass the first request to the dead instance (a kept server connection) and answer 502,
	// as any client may see right after a kill: try again, as a client would, until the phase's timeout.
	attempts := 0
	for {
		attempts++
		err := r.shell(r.policyCmd, []string{fmt.Sprintf("LOADGEN_POLICY_PORT=%d", port)})
		if err == nil {
			break
		}
		if time.Since(start) > r.timeout {
			return fmt.Errorf("failover: the policy change after the kill failed %d times, last: %w", attempts, err)
		}
		r.logf("failover: the policy change after the kill failed (%v); trying again", err)
		time.Sleep(250 * time.Millisecond)
	}
	res.FailoverChangeAttempts = attempts
	if !r.await("failover: nodes with the change made after the kill", p.seen) {
		return fmt.Errorf("failover: only %d of %d nodes received the change made after the kill within %v",
			p.seen.count.Load(), r.n, r.timeout)
	}
	var moved []*simNode
	for i, n := range r.nodes {
		n.mu.Lock()
		if n.pollGen != gens[i] {
			moved = append(moved, n)
		}
		n.mu.Unlock()
	}
	// A moved node's new full map carried the marker, and it counts its peers just after: wait for those counts.
	deadline := time.Now().Add(r.timeout)
	for _, n := range moved {
		for n.sampled && complete.at[n.index].Load() == 0 {
			if time.Now().After(deadline) {
				return fmt.Errorf("failover: node %d moved but holds %d of %d peers after %v", n.index,
					n.peerCount(), r.expectedPeers(n.index), r.timeout)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	res.FailoverMovedNodes = len(moved)
	res.FailoverChangeAllNodesS = p.seen.elapsed(start).Seconds()
	var lastFirst, lastComplete time.Duration
	for _, n := range moved {
		lastFirst = max(lastFirst, time.Duration(first.at[n.index].Load()))
		lastComplete = max(lastComplete, time.Duration(complete.at[n.index].Load()))
	}
	res.FailoverMovedFirstMapsS = lastFirst.Seconds()
	res.FailoverMovedFirstMapP50MS, res.FailoverMovedFirstMapP99MS, _ = first.sinceStartPercentiles()
	res.FailoverMovedAllPeersS = lastComplete.Seconds()
	res.FailoverS = max(res.FailoverChangeAllNodesS, res.FailoverMovedAllPeersS)
	res.Failover = true
	return nil
}

// markerNeedle is how a marker port appears in a map's JSON packet filter (tailcfg.PortRange), for nodes that
// do not decode their maps.
func markerNeedle(port uint16) []byte {
	return fmt.Appendf(nil, `"First":%d,"Last":%d}`, port, port)
}

// shell runs a command with sh -c, its output on loadgen's stderr, for at most the phase timeout.
func (r *run) shell(command string, env []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}
