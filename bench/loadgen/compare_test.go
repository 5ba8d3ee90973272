package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run that stopped early still shows the figures of the phases it finished; the phases it never reached are
// named as such instead of showing a zero time, and get no ratio.
func TestComparisonShowsWhatAnIncompleteRunMeasured(t *testing.T) {
	dir := t.TempDir()
	ours := filepath.Join(dir, "ours.txt")
	theirs := filepath.Join(dir, "theirs.txt")
	write := func(file, text string) {
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ours, "progress line\n"+`{"complete":true,"registrations_per_s":50,"all_peer_lists_s":40,"map_stream_errors":0,"server_cpu_s":90,"loadgen_exit":0}`+"\n")
	write(theirs, `{"complete":false,"registrations_per_s":10,"all_peer_lists_s":0,"map_stream_errors":0,"server_cpu_s":1800,"loadgen_exit":1}`+"\n")

	var out strings.Builder
	if err := printComparison(&out, "title", []string{"svc=" + ours, "hs=" + theirs}); err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		name, rest, _ := strings.Cut(strings.TrimSpace(line), "  ")
		rows[name] = strings.Fields(rest)
	}
	expect := func(row string, want ...string) {
		t.Helper()
		if got := rows[row]; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %q: got %q, want %q\n%s", row, got, want, out.String())
		}
	}
	expect("registrations per second (/s)", "50.0", "10.0", "5.00", "(higher", "is", "better)")
	expect("all nodes hold all their peers (from first registration) (s)", "40.0", "not", "reached")
	expect("server CPU during the run (s)", "90.0", "1800", "0.05")
	expect("map streams that broke", "0", "0")
	if !strings.Contains(out.String(), "hs: the run did not complete") {
		t.Errorf("the incomplete run is not named:\n%s", out.String())
	}
}

// The CPU of each phase, the server's and loadgen's, is compared from the summaries' "phases"; the changes row sums
// two phases, and a run without them shows none.
func TestComparisonShowsCPUByPhase(t *testing.T) {
	run := map[string]any{}
	summary := `{"phases":[{"name":"join","wall_s":9,"server_cpu_s":12.5,"loadgen_cpu_s":3},` +
		`{"name":"endpoint changes","wall_s":1,"server_cpu_s":1.5,"loadgen_cpu_s":0.1},` +
		`{"name":"policy changes","wall_s":1,"server_cpu_s":2,"loadgen_cpu_s":0.1}]}`
	if err := json.Unmarshal([]byte(summary), &run); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]float64{"phase:join:server_cpu_s": 12.5, "phase:join:loadgen_cpu_s": 3,
		"phase:endpoint changes+policy changes:server_cpu_s": 3.5} {
		if got, ok := figure(run, key); !ok || got != want {
			t.Errorf("%s: got %v, %v; want %v", key, got, ok, want)
		}
	}
	if _, ok := figure(run, "phase:mass reconnect:server_cpu_s"); ok {
		t.Error("a phase the run lacks has a figure")
	}
	if _, ok := figure(map[string]any{}, "phase:join:server_cpu_s"); ok {
		t.Error("a summary without phases has a figure")
	}
}
