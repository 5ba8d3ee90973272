package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// comparedFigure is one row of the comparison table: a figure of the JSON summary (loadgen's, with the
// figures bench/run and bench/run-headscale add), how to show it, and whether more is better.
type comparedFigure struct {
	name, key, unit string
	scale           float64 // the JSON value is multiplied by this for display
	higherIsBetter  bool
}

var comparedFigures = []comparedFigure{
	{"registrations per second", "registrations_per_s", "/s", 1, true},
	{"all nodes hold all their peers (from first registration)", "all_peer_lists_s", "s", 1, false},
	{"... from the last registration", "all_peer_lists_after_last_registration_s", "s", 1, false},
	{"first map after opening the stream, p50", "first_map_p50_ms", "ms", 1, false},
	{"first map after opening the stream, p99", "first_map_p99_ms", "ms", 1, false},
	{"first maps written within (own histogram)", "join_server_full_maps_within_s", "s", 1, false},
	{"endpoint change seen by a peer, p50", "propagation_p50_ms", "ms", 1, false},
	{"endpoint change seen by a peer, p99", "propagation_p99_ms", "ms", 1, false},
	{"policy change seen by a node, p50", "policy_propagation_p50_ms", "ms", 1, false},
	{"policy change seen by a node, p99", "policy_propagation_p99_ms", "ms", 1, false},
	{"endpoint change written to all streams, max (own count)", "propagation_server_wrote_all_max_ms", "ms", 1, false},
	{"policy change written to all streams, max (own count)", "policy_propagation_server_wrote_all_max_ms", "ms", 1, false},
	{"mass reconnect: all first maps", "reconnect_all_first_maps_s", "s", 1, false},
	{"mass reconnect: all peer lists", "reconnect_all_peer_lists_s", "s", 1, false},
	{"mass reconnect: all first maps written (own count)", "reconnect_server_wrote_all_first_maps_s", "s", 1, false},
	{"mass reconnect: first maps written within (own histogram)", "reconnect_server_full_maps_within_s", "s", 1, false},
	{"server CPU during the run", "server_cpu_s", "s", 1, false},
	{"server peak RSS", "server_rss_peak_mib", "MiB", 1, false},
	{"bytes received per node, whole run", "bytes_in_per_node", "KiB", 1.0 / 1024, false},
	{"... join", "join_bytes_in_per_node", "KiB", 1.0 / 1024, false},
	{"... mass reconnect", "reconnect_bytes_in_per_node", "KiB", 1.0 / 1024, false},
	{"bytes sent per node", "bytes_out_per_node", "KiB", 1.0 / 1024, false},
	{"map streams that broke", "map_stream_errors", "", 1, false},
	{"nodes with more or fewer peers than expected, at the end", "nodes_with_wrong_peer_count", "", 1, false},
	{"loadgen's own CPU", "loadgen_cpu_s", "s", 1, false},
	{"join: server CPU", "phase:join:server_cpu_s", "s", 1, false},
	{"join: loadgen CPU", "phase:join:loadgen_cpu_s", "s", 1, false},
	{"changes: server CPU (endpoint + policy)", "phase:endpoint changes+policy changes:server_cpu_s", "s", 1, false},
	{"mass reconnect: server CPU", "phase:mass reconnect:server_cpu_s", "s", 1, false},
	{"mass reconnect: loadgen CPU", "phase:mass reconnect:loadgen_cpu_s", "s", 1, false},
	{"load average (1 min) when the run started", "load_average_1m", "", 1, false},
}

// printComparison prints the figures of two or more runs side by side, with the ratio of the first to each
// other. Each argument is label=file, the file holding the run's output whose last JSON line is its summary.
func printComparison(w io.Writer, title string, args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("-compare needs at least two label=file arguments")
	}
	var labels []string
	var runs []map[string]any
	for _, arg := range args {
		label, file, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("-compare: %q is not label=file", arg)
		}
		summary, err := lastJSONLine(file)
		if err != nil {
			return err
		}
		labels = append(labels, label)
		runs = append(runs, summary)
	}
	if title != "" {
		fmt.Fprintln(w, title)
	}
	header := fmt.Sprintf("  %-62s", "")
	for _, l := range labels {
		header += fmt.Sprintf(" %14s", l)
	}
	for _, l := range labels[1:] {
		header += fmt.Sprintf(" %16s", labels[0]+"/"+l)
	}
	fmt.Fprintln(w, header)
	for _, f := range comparedFigures {
		name := f.name
		if f.unit != "" {
			name += " (" + f.unit + ")"
		}
		line := fmt.Sprintf("  %-62s", name)
		values := make([]float64, len(runs))
		known := make([]bool, len(runs))
		for i, run := range runs {
			v, ok := figure(run, f.key)
			values[i], known[i] = v*f.scale, ok
			switch {
			case ok && v == 0 && f.unit != "" && run["complete"] != true:
				// A run that stopped early reports the phases it never reached as zero: no time, no rate.
				known[i] = false
				line += fmt.Sprintf(" %14s", "not reached")
			case ok:
				line += fmt.Sprintf(" %14s", number(values[i]))
			default:
				line += fmt.Sprintf(" %14s", "-")
			}
		}
		for i := 1; i < len(runs); i++ {
			if known[0] && known[i] && values[i] != 0 && f.key != "load_average_1m" {
				line += fmt.Sprintf(" %16s", fmt.Sprintf("%.2f", values[0]/values[i]))
			} else {
				line += fmt.Sprintf(" %16s", "")
			}
		}
		if f.higherIsBetter {
			line += "  (higher is better)"
		}
		fmt.Fprintln(w, line)
	}
	for i, run := range runs {
		if exit, _ := run["loadgen_exit"].(float64); exit != 0 || run["complete"] != true {
			fmt.Fprintf(w, "  %s: the run did not complete (loadgen exit %v): its figures are of the phases it finished\n", labels[i], run["loadgen_exit"])
		}
	}
	return nil
}

// figure is a summary's value for key: a top-level number, or "phase:NAME[+NAME...]:FIELD", the sum of that field
// over the named entries of "phases" (absent when any of them is).
func figure(run map[string]any, key string) (float64, bool) {
	spec, ok := strings.CutPrefix(key, "phase:")
	if !ok {
		v, ok := run[key].(float64)
		return v, ok
	}
	names, field, _ := strings.Cut(spec, ":")
	phases, _ := run["phases"].([]any)
	sum := 0.0
	for _, name := range strings.Split(names, "+") {
		found := false
		for _, p := range phases {
			if p, _ := p.(map[string]any); p != nil && p["name"] == name {
				v, ok := p[field].(float64)
				if !ok {
					return 0, false
				}
				sum, found = sum+v, true
			}
		}
		if !found {
			return 0, false
		}
	}
	return sum, true
}

func number(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100 || v <= -100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10 || v <= -10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func lastJSONLine(file string) (map[string]any, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var last string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "{") {
			last = sc.Text()
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if last == "" {
		return nil, fmt.Errorf("%s: no JSON summary line", file)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(last), &m); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return m, nil
}
