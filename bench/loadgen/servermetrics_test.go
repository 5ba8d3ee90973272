package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// The text exposition of a histogram, as our server's Prometheus client writes it.
func exposition(counts ...int) string {
	bounds := []string{"0.5", "1.0", "2.5", "+Inf"}
	var b strings.Builder
	b.WriteString("# TYPE svc_map_full_map_seconds histogram\n")
	for i, le := range bounds {
		b.WriteString(`svc_map_full_map_seconds_bucket{le="` + le + `"} ` + strconv.Itoa(counts[i]) + "\n")
	}
	b.WriteString("svc_map_full_map_seconds_count 0\nsvc_map_messages_total{kind=\"full\"} 9.0\n")
	return b.String()
}

func TestAllWithinIsTheSmallestBucketHoldingEveryNewObservation(t *testing.T) {
	before, err := histogramBuckets(strings.NewReader(exposition(1, 1, 2, 2)), fullMapSecondsMetric)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 4 || before[math.Inf(1)] != 2 || before[0.5] != 1 {
		t.Fatalf("buckets read: %v", before)
	}
	after, err := histogramBuckets(strings.NewReader(exposition(1, 3, 5, 5)), fullMapSecondsMetric)
	if err != nil {
		t.Fatal(err)
	}
	// Three new maps: two within 1 s, one between 1 and 2.5 s. The one over 1 s before does not count.
	if le, ok := allWithin(before, after); !ok || le != 2.5 {
		t.Errorf("allWithin = %v, %v; want 2.5", le, ok)
	}
	if _, ok := allWithin(after, after); ok {
		t.Error("no new observation, yet a bound")
	}
	slow, _ := histogramBuckets(strings.NewReader(exposition(1, 3, 5, 6)), fullMapSecondsMetric)
	if le, ok := allWithin(after, slow); !ok || !math.IsInf(le, 1) {
		t.Errorf("a map over the largest finite bound: got %v, %v", le, ok)
	}
}

func TestHistogramBucketsNamesWhatIsMissingOrUnreadable(t *testing.T) {
	if _, err := histogramBuckets(strings.NewReader("other_metric 1\n"), fullMapSecondsMetric); err == nil ||
		!strings.Contains(err.Error(), "no svc_map_full_map_seconds histogram") {
		t.Errorf("missing histogram: %v", err)
	}
	bad := `svc_map_full_map_seconds_bucket{le="1.0"} many` + "\n"
	if _, err := histogramBuckets(strings.NewReader(bad), fullMapSecondsMetric); err == nil ||
		!strings.Contains(err.Error(), "many") {
		t.Errorf("unreadable count: %v", err)
	}
}

func TestParseNetstatCounterReadsTheNamedCounterOfItsGroupOnly(t *testing.T) {
	netstat := "TcpExt: SyncookiesSent ListenOverflows ListenDrops\n" +
		"TcpExt: 0 160111 160112\n" +
		"IpExt: InNoRoutes ListenOverflows\n" +
		"IpExt: 3 99\n"
	if v, ok := parseNetstatCounter(netstat, "TcpExt:", "ListenOverflows"); !ok || v != 160111 {
		t.Fatalf("TcpExt ListenOverflows = %d, %v; want 160111", v, ok)
	}
	if v, ok := parseNetstatCounter(netstat, "IpExt:", "ListenOverflows"); !ok || v != 99 {
		t.Fatalf("IpExt ListenOverflows = %d, %v; want 99", v, ok)
	}
	if _, ok := parseNetstatCounter(netstat, "TcpExt:", "NoSuchCounter"); ok {
		t.Fatal("a counter that is not there was found")
	}
	if _, ok := parseNetstatCounter("TcpExt: ListenOverflows\nTcpExt: x\n", "TcpExt:", "ListenOverflows"); ok {
		t.Fatal("a value that is not a number was read")
	}
}
