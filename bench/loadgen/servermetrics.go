package main

import (
	"bufio"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Our server counts the map messages it has written, by kind (svc_map_messages_total). Watching those counters
// (-server-metrics) shows when the server had done its part of a phase (every first map of a mass reconnect
// written, a change written to every stream), apart from the time loadgen's in-process clients then need to
// decode what they were sent on the same cores.
const (
	fullMapsMetric = `svc_map_messages_total{kind="full"}`
	deltasMetric   = `svc_map_messages_total{kind="delta"}`
)

// counterValue reads one series of the server's metrics.
func counterValue(metricsURL, series string) (int64, error) {
	res, err := http.Get(metricsURL)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(make([]byte, 64*1024), 1024*1024)
	for lines.Scan() {
		value, ok := strings.CutPrefix(lines.Text(), series+" ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", series, err)
		}
		return int64(f), nil
	}
	if err := lines.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s has no %s", metricsURL, series)
}

// serverWatch polls a counter every 100 ms until it has grown by a given count.
type serverWatch struct {
	start   time.Time
	reached chan time.Duration
	stop    chan struct{}
}

// watchServer starts watching series grow by count from now; nil when there are no server metrics to read.
// The start time is taken after the first read, so call it just before causing what is to be counted.
func (r *run) watchServer(series string, count int) (*serverWatch, error) {
	if r.metricsURL == "" {
		return nil, nil
	}
	base, err := counterValue(r.metricsURL, series)
	if err != nil {
		return nil, fmt.Errorf("server metrics: %v", err)
	}
	w := &serverWatch{start: time.Now(), reached: make(chan time.Duration, 1), stop: make(chan struct{})}
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case now := <-tick.C:
				if v, err := counterValue(r.metricsURL, series); err != nil || v >= base+int64(count) {
					if err == nil {
						w.reached <- now.Sub(w.start)
					}
					return
				}
			}
		}
	}()
	return w, nil
}

// result stops the watch and reports the time the count was reached, waiting at most a second more for the
// next poll (the clients already hold what was counted when this is called); false when it was not seen.
func (w *serverWatch) result() (time.Duration, bool) {
	if w == nil {
		return 0, false
	}
	defer close(w.stop)
	select {
	case d := <-w.reached:
		return d, true
	case <-time.After(time.Second):
		return 0, false
	}
}

// serverMaxMS is the larger of max and the watch's time in milliseconds (max when the watch saw nothing).
func serverMaxMS(max float64, w *serverWatch) float64 {
	d, ok := w.result()
	if !ok {
		return max
	}
	return math.Max(max, float64(d.Microseconds())/1000)
}
