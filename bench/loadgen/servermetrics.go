package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
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
	// The histogram of the time from reading a map request to having written its full map.
	fullMapSecondsMetric = "svc_map_full_map_seconds"
)

// readMetrics fetches the server's metrics and hands their text to read.
func readMetrics(metricsURL string, read func(text io.Reader) error) error {
	res, err := http.Get(metricsURL)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return read(res.Body)
}

func scanLines(text io.Reader, each func(line string) bool) error {
	lines := bufio.NewScanner(text)
	lines.Buffer(make([]byte, 64*1024), 1024*1024)
	for lines.Scan() {
		if !each(lines.Text()) {
			return nil
		}
	}
	return lines.Err()
}

// counterValue reads one series of the server's metrics.
func counterValue(metricsURL, series string) (int64, error) {
	var value float64
	var found bool
	var parseErr error
	err := readMetrics(metricsURL, func(text io.Reader) error {
		return scanLines(text, func(line string) bool {
			number, ok := strings.CutPrefix(line, series+" ")
			if !ok {
				return true
			}
			value, parseErr = strconv.ParseFloat(strings.TrimSpace(number), 64)
			found = true
			return false
		})
	})
	switch {
	case err != nil:
		return 0, err
	case parseErr != nil:
		return 0, fmt.Errorf("%s: %v", series, parseErr)
	case !found:
		return 0, fmt.Errorf("%s has no %s", metricsURL, series)
	}
	return int64(value), nil
}

// histogramBuckets reads a histogram's cumulative counts by bucket upper bound (+Inf included) from the lines
// name_bucket{le="bound"} count of the text exposition format.
func histogramBuckets(text io.Reader, name string) (map[float64]int64, error) {
	buckets := map[float64]int64{}
	prefix := name + `_bucket{le="`
	var parseErr error
	err := scanLines(text, func(line string) bool {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			return true
		}
		bound, count, ok := strings.Cut(rest, `"} `)
		le, err1 := strconv.ParseFloat(bound, 64)
		n, err2 := strconv.ParseFloat(strings.TrimSpace(count), 64)
		if !ok || err1 != nil || err2 != nil {
			parseErr = fmt.Errorf("%s: cannot read %q", name, line)
			return false
		}
		buckets[le] = int64(n)
		return true
	})
	if err == nil {
		err = parseErr
	}
	if err == nil && len(buckets) == 0 {
		err = fmt.Errorf("no %s histogram", name)
	}
	return buckets, err
}

// allWithin is the smallest bucket bound that holds every observation made between two readings of a histogram;
// false when there was none.
func allWithin(before, after map[float64]int64) (float64, bool) {
	total := after[math.Inf(1)] - before[math.Inf(1)]
	if total <= 0 {
		return 0, false
	}
	bounds := make([]float64, 0, len(after))
	for le := range after {
		bounds = append(bounds, le)
	}
	slices.Sort(bounds)
	for _, le := range bounds {
		if after[le]-before[le] == total {
			return le, true
		}
	}
	return math.Inf(1), true
}

// fullMapTimes reads the server's full-map histogram; nil without -server-metrics or when it cannot be read
// (then the phase's figure is left out).
func (r *run) fullMapTimes() map[float64]int64 {
	if r.metricsURL == "" {
		return nil
	}
	var buckets map[float64]int64
	err := readMetrics(r.metricsURL, func(text io.Reader) (err error) {
		buckets, err = histogramBuckets(text, fullMapSecondsMetric)
		return err
	})
	if err != nil {
		r.logf("server metrics: %v", err)
		return nil
	}
	return buckets
}

// fullMapsWithinS is the bucket bound within which the server wrote every full map since before, in seconds; 0
// when unknown, or when some took longer than the largest finite bound (logged: JSON has no infinity).
func (r *run) fullMapsWithinS(before map[float64]int64) float64 {
	if before == nil {
		return 0
	}
	after := r.fullMapTimes()
	if after == nil {
		return 0
	}
	le, ok := allWithin(before, after)
	if ok && math.IsInf(le, 1) {
		r.logf("server metrics: some full maps took longer than the histogram's largest bucket")
		return 0
	}
	return le
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
