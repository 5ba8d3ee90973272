package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

// phase is what one phase of a run cost: its wall time, the CPU seconds the server process used in it (read
// from /proc/<pid>/stat, with -server-pid) and the CPU seconds loadgen itself used, so that a reader can tell
// which side of the shared machine a figure measures. ListenOverflows counts the connections the kernel dropped
// because a listening socket's accept queue was full (the whole machine's TcpExt counter; on a bench machine the
// server is what listens): a client whose connection is dropped retries its SYN after a second or more.
type phase struct {
	Name            string   `json:"name"`
	WallS           float64  `json:"wall_s"`
	ServerCPUS      *float64 `json:"server_cpu_s,omitempty"` // nil: not measured (no -server-pid)
	LoadgenCPUS     float64  `json:"loadgen_cpu_s"`
	ListenOverflows *int64   `json:"listen_overflows,omitempty"` // nil: /proc/net/netstat unreadable
}

// phaseClock measures one phase from its start; end adds it to the results.
type phaseClock struct {
	name           string
	start          time.Time
	server         map[int]float64 // CPU seconds at the start, per server process that could be read then
	loadgenBefore  float64
	serverPIDs     []int
	overflows      int64
	overflowsKnown bool
}

func (r *run) startPhase(name string) *phaseClock {
	p := &phaseClock{name: name, start: time.Now(), loadgenBefore: cpuSeconds(), serverPIDs: r.serverPIDs}
	p.server = serversCPUSeconds(r.serverPIDs)
	p.overflows, p.overflowsKnown = listenOverflows()
	return p
}

func (p *phaseClock) end(res *results) {
	ph := phase{Name: p.name, WallS: round2(time.Since(p.start).Seconds()), LoadgenCPUS: round2(cpuSeconds() - p.loadgenBefore)}
	if s, ok := cpuSpent(p.server, serversCPUSeconds(p.serverPIDs)); ok {
		s = round2(s)
		ph.ServerCPUS = &s
	}
	if after, ok := listenOverflows(); ok && p.overflowsKnown {
		dropped := after - p.overflows
		ph.ListenOverflows = &dropped
	}
	res.Phases = append(res.Phases, ph)
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux architecture Go builds for.
const clockTicks = 100

// serversCPUSeconds is the CPU time each server process has used so far, for those that can be read.
func serversCPUSeconds(pids []int) map[int]float64 {
	cpu := map[int]float64{}
	for _, pid := range pids {
		if s, ok := processCPUSeconds(pid); ok {
			cpu[pid] = s
		}
	}
	return cpu
}

// cpuSpent sums what each server process used between two readings. A process gone at the second (an instance
// killed in a failover phase) is left out: what it used in the phase can no longer be read. False when no
// process was read both times.
func cpuSpent(before, after map[int]float64) (float64, bool) {
	var sum float64
	found := false
	for pid, b := range before {
		if a, ok := after[pid]; ok {
			sum += a - b
			found = true
		}
	}
	return sum, found
}

// processCPUSeconds is the CPU time (user + system) process pid has used so far, from /proc/<pid>/stat.
func processCPUSeconds(pid int) (float64, bool) {
	if pid <= 0 {
		return 0, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime and stime (fields 14 and 15) from a /proc/<pid>/stat line. The command name (field
// 2) is in parentheses and may hold spaces, so fields are counted from the last ')'.
func parseStatCPU(stat string) (float64, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:]) // f[0] is field 3
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return (utime + stime) / clockTicks, true
}

func printPhases(w io.Writer, phases []phase) {
	if len(phases) == 0 {
		return
	}
	fmt.Fprintf(w, "  %-44s %10s %14s %14s %16s\n", "CPU by phase", "wall s", "server CPU s", "loadgen CPU s",
		"accept overflows")
	for _, p := range phases {
		server, overflows := "-", "-"
		if p.ServerCPUS != nil {
			server = fmt.Sprintf("%.1f", *p.ServerCPUS)
		}
		if p.ListenOverflows != nil {
			overflows = strconv.FormatInt(*p.ListenOverflows, 10)
		}
		fmt.Fprintf(w, "  %-44s %10.1f %14s %14.1f %16s\n", "  "+p.Name, p.WallS, server, p.LoadgenCPUS, overflows)
	}
}

// listenOverflows is the kernel's count of connections dropped for a full accept queue (TcpExt
// ListenOverflows in /proc/net/netstat), for this network namespace.
func listenOverflows() (int64, bool) {
	b, err := os.ReadFile("/proc/net/netstat")
	if err != nil {
		return 0, false
	}
	return parseNetstatCounter(string(b), "TcpExt:", "ListenOverflows")
}

// parseNetstatCounter finds one counter in /proc/net/netstat's text: each group is a line of names and then a
// line of values, both starting with the group's prefix.
func parseNetstatCounter(netstat, group, name string) (int64, bool) {
	lines := strings.Split(netstat, "\n")
	for i := 0; i+1 < len(lines); i++ {
		names, values := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if len(names) == 0 || names[0] != group || len(values) != len(names) || values[0] != group {
			continue
		}
		for j, n := range names {
			if n == name {
				v, err := strconv.ParseInt(values[j], 10, 64)
				return v, err == nil
			}
		}
	}
	return 0, false
}

// serverOpenFiles is how many file descriptors the server processes hold together; false when none can be read.
func serverOpenFiles(pids []int) (int, bool) {
	total, found := 0, false
	for _, pid := range pids {
		if k, ok := openFiles(pid); ok {
			total += k
			found = true
		}
	}
	return total, found
}

// parsePIDs reads -server-pid: process ids separated by commas (one per instance); 0 or "" is none.
func parsePIDs(list string) ([]int, error) {
	var pids []int
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" || f == "0" {
			continue
		}
		pid, err := strconv.Atoi(f)
		if err != nil || pid < 0 {
			return nil, fmt.Errorf("-server-pid %q: want process ids separated by commas", list)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// openFiles is how many file descriptors process pid holds, from /proc/<pid>/fd.
func openFiles(pid int) (int, bool) {
	if pid <= 0 {
		return 0, false
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0, false
	}
	return len(fds), true
}
