package main

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// fullMapsMetric is the counter our server keeps of the full maps it has written (the first message of every map
// stream). Watching it shows when the server had served a mass reconnect, apart from the time loadgen's own
// 2,000 in-process clients then need to decode what they were sent on the same cores.
const fullMapsMetric = `svc_map_messages_total{kind="full"}`

// fullMapsWritten reads the server's full-map counter.
func fullMapsWritten(metricsURL string) (int64, error) {
	res, err := http.Get(metricsURL)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(make([]byte, 64*1024), 1024*1024)
	for lines.Scan() {
		value, ok := strings.CutPrefix(lines.Text(), fullMapsMetric+" ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", fullMapsMetric, err)
		}
		return int64(f), nil
	}
	if err := lines.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s has no %s", metricsURL, fullMapsMetric)
}

// watchFullMaps polls the counter every 100 ms until it reaches target and returns a channel that then receives
// the time since start (or is closed when stop is closed first, or the server stops answering).
func watchFullMaps(metricsURL string, target int64, start time.Time, stop <-chan struct{}) <-chan time.Duration {
	reached := make(chan time.Duration, 1)
	go func() {
		defer close(reached)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				written, err := fullMapsWritten(metricsURL)
				if err != nil {
					return
				}
				if written >= target {
					reached <- now.Sub(start)
					return
				}
			}
		}
	}()
	return reached
}
