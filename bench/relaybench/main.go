// Command relaybench measures how fast a DERP relay forwards packets between clients of the vendor's own
// DERP client library (tailscale.com/derp/derphttp, as tailscaled uses it). Each pair of clients has one
// sending packets to the other through the relay, with a window of packets in flight: the receiver
// acknowledges through the relay every window/4 packets, and the sender stops when the window is full, so the
// relay is measured at its forwarding rate; packets the relay drops (its queue for the receiver full) are
// counted as sent minus delivered. It prints the packets
// and bytes delivered per second during the measured interval (after a warm-up), then one JSON line.
// It only ever connects to the loopback URL it is given.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/netip"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"tailscale.com/derp"
	"tailscale.com/derp/derphttp"
	"tailscale.com/net/netmon"
	"tailscale.com/types/key"
	"tailscale.com/types/logger"
)

const (
	kindData = 1
	kindAck  = 2
	header   = 9 // kind, then a big-endian sequence number
)

type config struct {
	url      string
	addr     string // host:port, the only address the clients may dial
	pairs    int
	size     int
	window   uint64
	warmup   time.Duration
	duration time.Duration
	label    string
}

// counters are what every pair adds to; the measurement takes their difference over the measured interval.
type counters struct {
	sent      atomic.Int64
	delivered atomic.Int64
	bytes     atomic.Int64
	stalls    atomic.Int64 // the window stayed full for stallAfter: packets or acks were lost
	bad       atomic.Int64 // packets that arrived with the wrong size or kind
}

const stallAfter = 200 * time.Millisecond

type results struct {
	Label            string  `json:"label"`
	URL              string  `json:"url"`
	Pairs            int     `json:"pairs"`
	PacketBytes      int     `json:"packet_bytes"`
	Window           uint64  `json:"window"`
	MeasuredS        float64 `json:"measured_s"`
	PacketsPerSecond float64 `json:"packets_per_s"`
	MBPerSecond      float64 `json:"mb_per_s"` // payload bytes delivered, 10^6 per second
	Sent             int64   `json:"packets_sent"`
	Delivered        int64   `json:"packets_delivered"`
	Lost             int64   `json:"packets_lost"` // sent minus delivered (to within the window): dropped by the relay
	Stalls           int64   `json:"window_stalls"`
	Bad              int64   `json:"bad_packets"`
	ClientCPUS       float64 `json:"relaybench_cpu_s"`
}

func main() {
	c := config{}
	flag.StringVar(&c.url, "url", "", "DERP URL of the relay, plain HTTP on a loopback address (e.g. http://127.0.0.1:8080/derp)")
	flag.IntVar(&c.pairs, "pairs", 1, "sender/receiver pairs, each two clients")
	flag.IntVar(&c.size, "size", 1280, "packet size in bytes (a WireGuard packet is at most about 1,400)")
	window := flag.Int("window", 32, "packets in flight per pair (a relay drops what does not fit its queue for the receiver: 32 in derper)")
	flag.DurationVar(&c.warmup, "warmup", 3*time.Second, "time to send before measuring")
	flag.DurationVar(&c.duration, "duration", 10*time.Second, "measured interval")
	flag.StringVar(&c.label, "label", "", "name of the relay in the output")
	flag.Parse()
	c.window = uint64(max(*window, 4))
	if err := c.check(); err != nil {
		fmt.Fprintln(os.Stderr, "relaybench:", err)
		os.Exit(2)
	}
	res, err := run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "relaybench: FAILED:", err)
		os.Exit(1)
	}
	res.print()
}

func (c *config) check() error {
	u, err := url.Parse(c.url)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("-url %q: want http://<loopback address>:<port>/derp", c.url)
	}
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil || !ip.IsLoopback() || u.Port() == "" {
		return fmt.Errorf("-url %q: the host must be a loopback IP address with a port", c.url)
	}
	if c.size < header || c.size > derp.MaxPacketSize {
		return fmt.Errorf("-size must be between %d and %d", header, derp.MaxPacketSize)
	}
	if c.pairs < 1 {
		return errors.New("-pairs must be at least 1")
	}
	c.addr = net.JoinHostPort(ip.String(), u.Port())
	if c.label == "" {
		c.label = c.url
	}
	return nil
}

func run(c config) (*results, error) {
	netMon := netmon.NewStatic()
	var cnt counters
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var clients []*derphttp.Client
	defer func() {
		for _, cl := range clients {
			cl.Close()
		}
	}()
	var wg sync.WaitGroup
	for range c.pairs {
		from, err := c.client(netMon)
		if err != nil {
			return nil, err
		}
		to, err := c.client(netMon)
		if err != nil {
			return nil, err
		}
		clients = append(clients, from, to)
		p := &pair{cfg: c, from: from, to: to, cnt: &cnt, acked: make(chan uint64, 1)}
		wg.Add(3)
		go func() { defer wg.Done(); p.receive(ctx) }()
		go func() { defer wg.Done(); p.readAcks(ctx) }()
		go func() { defer wg.Done(); p.send(ctx) }()
	}
	log.Printf("relaybench: %d pair(s), %d-byte packets, window %d, through %s", c.pairs, c.size, c.window, c.url)
	time.Sleep(c.warmup)
	sent0, del0, bytes0, stalls0, cpu0, t0 := cnt.sent.Load(), cnt.delivered.Load(), cnt.bytes.Load(), cnt.stalls.Load(), cpuSeconds(), time.Now()
	if del0 == 0 {
		return nil, fmt.Errorf("no packet arrived during the %v warm-up", c.warmup)
	}
	time.Sleep(c.duration)
	sent1, del1, bytes1, stalls1, cpu1, elapsed := cnt.sent.Load(), cnt.delivered.Load(), cnt.bytes.Load(), cnt.stalls.Load(), cpuSeconds(), time.Since(t0)
	cancel()
	for _, cl := range clients {
		cl.Close() // ends the blocked Recv calls
	}
	clients = nil
	wg.Wait()
	return &results{
		Label: c.label, URL: c.url, Pairs: c.pairs, PacketBytes: c.size, Window: c.window,
		MeasuredS:        elapsed.Seconds(),
		PacketsPerSecond: float64(del1-del0) / elapsed.Seconds(),
		MBPerSecond:      float64(bytes1-bytes0) / elapsed.Seconds() / 1e6,
		Sent:             sent1 - sent0, Delivered: del1 - del0, Lost: max(0, (sent1-sent0)-(del1-del0)),
		Stalls: stalls1 - stalls0, Bad: cnt.bad.Load(),
		ClientCPUS: cpu1 - cpu0,
	}, nil
}

// client makes a DERP client with a new node key that dials only the relay's address.
func (c config) client(netMon *netmon.Monitor) (*derphttp.Client, error) {
	cl, err := derphttp.NewClient(key.NewNode(), c.url, logger.Discard, netMon)
	if err != nil {
		return nil, err
	}
	cl.SetURLDialer(func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr != c.addr {
			return nil, fmt.Errorf("relaybench: refusing to dial %s %s: only %s is allowed", network, addr, c.addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cl.Connect(ctx); err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", c.url, err)
	}
	return cl, nil
}

// pair is one sender and one receiver.
type pair struct {
	cfg      config
	from, to *derphttp.Client
	cnt      *counters
	acked    chan uint64 // the latest acknowledged sequence number, for the sender
}

func (p *pair) send(ctx context.Context) {
	pkt := make([]byte, p.cfg.size)
	pkt[0] = kindData
	dst := p.to.SelfPublicKey()
	var next, acked uint64
	for ctx.Err() == nil {
		if next-acked >= p.cfg.window {
			select {
			case a := <-p.acked:
				acked = max(acked, a)
			case <-time.After(stallAfter):
				p.cnt.stalls.Add(1)
				acked = next // give the outstanding packets up as lost
			case <-ctx.Done():
				return
			}
			continue
		}
		select {
		case a := <-p.acked:
			acked = max(acked, a)
		default:
		}
		next++
		binary.BigEndian.PutUint64(pkt[1:], next)
		if err := p.from.Send(dst, pkt); err != nil {
			if ctx.Err() == nil {
				log.Printf("relaybench: send: %v", err)
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		p.cnt.sent.Add(1)
	}
}

// receive counts the data packets and acknowledges every window/4 of them.
func (p *pair) receive(ctx context.Context) {
	ack := make([]byte, header)
	ack[0] = kindAck
	src := p.from.SelfPublicKey()
	every := p.cfg.window / 4
	var since uint64
	for ctx.Err() == nil {
		m, err := p.to.Recv()
		if err != nil {
			if ctx.Err() == nil {
				log.Printf("relaybench: receive: %v", err)
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		pkt, ok := m.(derp.ReceivedPacket)
		if !ok {
			continue
		}
		if len(pkt.Data) != p.cfg.size || pkt.Data[0] != kindData {
			p.cnt.bad.Add(1)
			continue
		}
		p.cnt.delivered.Add(1)
		p.cnt.bytes.Add(int64(len(pkt.Data)))
		if since++; since >= every {
			since = 0
			copy(ack[1:], pkt.Data[1:header])
			if err := p.to.Send(src, ack); err != nil && ctx.Err() == nil {
				log.Printf("relaybench: ack: %v", err)
			}
		}
	}
}

// readAcks passes the acknowledgements the sender's client receives on to the sender.
func (p *pair) readAcks(ctx context.Context) {
	for ctx.Err() == nil {
		m, err := p.from.Recv()
		if err != nil {
			if ctx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		pkt, ok := m.(derp.ReceivedPacket)
		if !ok || len(pkt.Data) != header || pkt.Data[0] != kindAck {
			continue
		}
		seq := binary.BigEndian.Uint64(pkt.Data[1:])
		select {
		case p.acked <- seq:
		default: // the sender has not taken the previous one: replace it with this later one
			select {
			case <-p.acked:
			default:
			}
			p.acked <- seq
		}
	}
}

func (r *results) print() {
	fmt.Printf("relaybench: %s\n", r.Label)
	fmt.Printf("  %-36s %.0f\n", "packets delivered per second", r.PacketsPerSecond)
	fmt.Printf("  %-36s %.1f\n", "MB delivered per second", r.MBPerSecond)
	fmt.Printf("  %-36s %d sent, %d delivered, %d window stalls, %d bad, over %.1f s\n", "packets", r.Sent, r.Delivered, r.Stalls, r.Bad, r.MeasuredS)
	fmt.Printf("  %-36s %.1f s\n", "relaybench's own CPU", r.ClientCPUS)
	j, _ := json.Marshal(r)
	fmt.Printf("%s\n", j)
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}
