package main

import (
	"net/netip"
	"strings"
	"testing"

	"tailscale.com/tailcfg"
	"tailscale.com/util/zstdframe"
)

func TestParseStatCPU(t *testing.T) {
	// utime 250 and stime 50 ticks (fields 14 and 15); the command name holds a space and a parenthesis.
	stat := "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 1000 0 0"
	got, ok := parseStatCPU(stat)
	if !ok || got != 3.0 {
		t.Fatalf("parseStatCPU = %v, %v; want 3, true", got, ok)
	}
	if _, ok := parseStatCPU("garbage"); ok {
		t.Fatal("parseStatCPU accepted a line without a command name")
	}
}

func TestLightSampleHasWatchersForEveryChange(t *testing.T) {
	for _, sameKey := range []bool{false, true} {
		r := &run{n: 1000, light: true, changes: 5, sameKeyOnly: sameKey, authKeys: make([]string, 100)}
		for k := range r.changes {
			o := r.origin(k)
			if !r.sampled(o) {
				t.Errorf("same-key %v: origin %d of change %d is not sampled", sameKey, o, k)
			}
			if r.watchers(o) == 0 {
				t.Errorf("same-key %v: change %d from node %d has no sampled watcher", sameKey, k, o)
			}
		}
		if c := r.sampledCount(); c < r.n/sampleEvery || c > r.n/sampleEvery+2*r.changes {
			t.Errorf("same-key %v: %d sampled nodes of %d", sameKey, c, r.n)
		}
	}
	full := &run{n: 10, changes: 5, authKeys: []string{"k"}}
	if full.sampledCount() != 10 || full.watchers(0) != full.expectedPeers(0) {
		t.Errorf("full mode: every node must decode its maps (sampled %d, watchers %d)", full.sampledCount(), full.watchers(0))
	}
}

func TestIsJSONObject(t *testing.T) {
	for in, want := range map[string]bool{`{"KeepAlive":true}`: true, " {}\n": true, `[1]`: false, `{`: false, ``: false} {
		if isJSONObject([]byte(in)) != want {
			t.Errorf("isJSONObject(%q) != %v", in, want)
		}
	}
}

func TestReconnectSkimsLargeFramesOfUnsampledNodesOnly(t *testing.T) {
	r := &run{n: 3}
	r.complete.Store(newMilestone(1, r.n))
	unsampled, sampled := &simNode{run: r}, &simNode{run: r, sampled: true, peers: map[tailcfg.NodeID][]netip.AddrPort{}}
	big := zstdframe.AppendEncode(nil, []byte(`{"Peers":[`+strings.Repeat(`{"ID":1},`, 400)+`{"ID":2}]}`))
	notZstd := append([]byte("garbage!"), make([]byte, 300)...)
	keepAlive := zstdframe.AppendEncode(nil, []byte(`{"KeepAlive":true}`))

	if _, err := unsampled.takeFrame(notZstd); err == nil {
		t.Fatal("outside a reconnect, a frame that is not zstd must be refused")
	}
	r.skimming.Store(true)
	if ka, err := unsampled.takeFrame(big); err != nil || ka {
		t.Fatalf("skimmed full map: keep-alive %v, err %v", ka, err)
	}
	if _, err := unsampled.takeFrame(notZstd); err == nil {
		t.Fatal("a skimmed frame that does not start as zstd must be refused")
	}
	if ka, err := unsampled.takeFrame(keepAlive); err != nil || !ka {
		t.Fatalf("a keep-alive is still decoded while skimming: keep-alive %v, err %v", ka, err)
	}
	if _, err := sampled.takeFrame(big); err != nil || sampled.peerCount() != 2 {
		t.Fatalf("a sampled node decodes its maps while skimming: %d peers, err %v", sampled.peerCount(), err)
	}
}
