package main

import (
	"encoding/json"
	"slices"
	"testing"

	"tailscale.com/tailcfg"
	"tailscale.com/util/zstdframe"
)

// An unsampled light node finds the failover marker in the JSON the vendor's types encode; a different port, or
// the policy phase's probe (not everyNode), does not count.
func TestUnsampledNodeSeesTheFailoverMarker(t *testing.T) {
	frame := func(port uint16) []byte {
		b, err := json.Marshal(&tailcfg.MapResponse{PacketFilter: []tailcfg.FilterRule{{
			SrcIPs:   []string{"*"},
			DstPorts: []tailcfg.NetPortRange{{IP: "*", Ports: tailcfg.PortRange{First: port, Last: port}}},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		return zstdframe.AppendEncode(nil, b)
	}
	r := &run{n: 2, light: true, policyChanges: 3}
	node := &simNode{run: r, index: 1}
	port := r.failoverMarkerPort()
	probe := &policyProbe{port: port, everyNode: true, needle: markerNeedle(port), seen: newMilestone(1, r.n)}
	r.policyProbe.Store(probe)
	if _, err := node.takeFrame(frame(port + 1)); err != nil || probe.seen.count.Load() != 0 {
		t.Fatalf("another port counted: %d, err %v", probe.seen.count.Load(), err)
	}
	probe.everyNode = false
	if _, err := node.takeFrame(frame(port)); err != nil || probe.seen.count.Load() != 0 {
		t.Fatalf("the policy phase's probe counted an unsampled node: %d, err %v", probe.seen.count.Load(), err)
	}
	probe.everyNode = true
	if _, err := node.takeFrame(frame(port)); err != nil || probe.seen.count.Load() != 1 {
		t.Fatalf("the marker was not seen: %d, err %v", probe.seen.count.Load(), err)
	}
}

func TestParsePIDs(t *testing.T) {
	for in, want := range map[string][]int{"": nil, "0": nil, "42": {42}, "42,43": {42, 43}, " 7 , 8 ": {7, 8}} {
		got, err := parsePIDs(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("parsePIDs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"x", "1,-2", "1;2"} {
		if _, err := parsePIDs(bad); err == nil {
			t.Errorf("parsePIDs(%q) accepted", bad)
		}
	}
}

// A phase's server CPU sums the instances read at both ends; one killed in the phase is left out.
func TestCPUSpentLeavesOutAKilledInstance(t *testing.T) {
	before := map[int]float64{1: 10, 2: 20}
	if s, ok := cpuSpent(before, map[int]float64{1: 12.5, 2: 21}); !ok || s != 3.5 {
		t.Errorf("both alive: %v, %v; want 3.5", s, ok)
	}
	if s, ok := cpuSpent(before, map[int]float64{2: 24}); !ok || s != 4 {
		t.Errorf("one killed: %v, %v; want 4", s, ok)
	}
	if _, ok := cpuSpent(before, map[int]float64{}); ok {
		t.Error("nothing read at the end, yet a figure")
	}
	if _, ok := cpuSpent(map[int]float64{}, map[int]float64{1: 3}); ok {
		t.Error("nothing read at the start, yet a figure")
	}
}
