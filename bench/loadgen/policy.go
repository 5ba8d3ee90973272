package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"tailscale.com/tailcfg"
	"tailscale.com/types/views"
)

// policyProbe is one policy change being timed: the server was asked to save a policy whose marker rule allows
// one UDP port; a node has seen the change once its packet filter names that port alone.
type policyProbe struct {
	port      uint16
	seen      *milestone
	everyNode bool   // the failover phase: light mode's unsampled nodes look for the marker too (needle)
	needle    []byte // the marker as it appears in a map's JSON
}

// propagatePolicy has the server save `changes` new policies, one after another, through the command given
// with -policy-cmd (run by sh with LOADGEN_POLICY_PORT set), and times how long each node takes to receive a
// packet filter with the marker port. Every node must see each change: the marker rule is written to apply to
// every node (see bench/run). The clock starts when the command starts, so the save itself is included.
func (r *run) propagatePolicy(res *results, command string, changes int) error {
	if command == "" || changes <= 0 {
		return nil
	}
	var times spread
	for k := range changes {
		p := &policyProbe{port: uint16(50000 + k), seen: newMilestone(r.sampledCount(), r.n)}
		r.policyProbe.Store(p)
		ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		cmd.Env = append(os.Environ(), fmt.Sprintf("LOADGEN_POLICY_PORT=%d", p.port))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		served, err := r.watchServer(deltasMetric, r.n)
		if err != nil {
			cancel()
			return err
		}
		p.seen.start = time.Now()
		err = cmd.Run()
		cancel()
		if err != nil {
			return fmt.Errorf("policy change %d: -policy-cmd failed: %w", k+1, err)
		}
		if !r.await(fmt.Sprintf("policy change %d/%d", k+1, changes), p.seen) {
			return fmt.Errorf("policy change %d: only %d of %d nodes got the new packet filter within %v", k+1,
				p.seen.count.Load(), r.sampledCount(), r.timeout)
		}
		times.add(p.seen)
		res.PolicyServerMaxMS = serverMaxMS(res.PolicyServerMaxMS, served)
		r.policyProbe.Store(nil)
		time.Sleep(200 * time.Millisecond)
	}
	res.PolicyChanges = changes
	res.PolicyP50MS, res.PolicyP99MS, res.PolicyMaxMS, res.PolicyAllNodesP50MS = times.figures()
	return nil
}

// sawPacketFilter checks a node's new packet filter for the marker port of the policy change being timed.
func (r *run) sawPacketFilter(n *simNode, rules views.Slice[tailcfg.FilterRule]) {
	p := r.policyProbe.Load()
	if p == nil {
		return
	}
	for _, rule := range rules.All() {
		for _, dst := range rule.DstPorts {
			if dst.Ports.First == p.port && dst.Ports.Last == p.port {
				p.seen.hit(n.index, time.Time{})
				return
			}
		}
	}
}
