// Command ts2021check drives Mesh Control's ts2021 transport with Tailscale's own client code: the server key comes
// from GET /key through tailscale.com/control/tsp, and every request goes through tailscale.com/control/ts2021.Client,
// the Noise-over-HTTP/2 client that tailscaled's control client uses (controlhttp.Dialer for the upgrade, controlbase
// for Noise, Go's HTTP/2 transport with prior knowledge on top).
//
// It expects the test-only /machine/test/* endpoints that the Java test registers (echo, whoami, stream), checks what
// they return, and prints "name value" lines for the Java test to assert on and report. It exits non-zero on the
// first failure. Mesh Control test tooling only: it links the vendor's libraries so that the check is against their
// code, not ours.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"tailscale.com/control/controlhttp"
	"tailscale.com/control/ts2021"
	"tailscale.com/control/tsp"
	"tailscale.com/net/netmon"
	"tailscale.com/net/tsdial"
	"tailscale.com/tailcfg"
	"tailscale.com/tstime"
	"tailscale.com/types/key"
)

type whoami struct {
	MachineKey       string `json:"machineKey"`
	ProtocolVersion  int    `json:"protocolVersion"`
	NodeKeyChallenge string `json:"nodeKeyChallenge"`
}

func main() {
	serverURL := flag.String("url", "", "the server, http://127.0.0.1:PORT")
	echoBytes := flag.Int("echo-bytes", 1<<20, "size of the echoed body")
	echoRounds := flag.Int("echo-rounds", 5, "how many times to echo it (the first warms up)")
	concurrent := flag.Int("concurrent", 32, "concurrent requests on the one connection")
	chunks := flag.Int("stream-chunks", 5, "messages in the streamed response")
	pause := flag.Duration("stream-pause", 700*time.Millisecond, "pause between streamed messages")
	timeout := flag.Duration("timeout", 3*time.Minute, "give up after this long")
	flag.Parse()

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := run(ctx, *serverURL, *echoBytes, *echoRounds, *concurrent, *chunks, *pause); err != nil {
		fmt.Fprintln(os.Stderr, "ts2021check:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, serverURL string, echoBytes, echoRounds, concurrent, chunks int, pause time.Duration) error {
	if err := checkKeyDocument(ctx, serverURL); err != nil {
		return err
	}
	serverKey, err := tsp.DiscoverServerKey(ctx, serverURL)
	if err != nil {
		return fmt.Errorf("discovering the server key: %w", err)
	}
	fmt.Println("server-key", serverKey.String())

	machineKey := key.NewMachine()
	fmt.Println("client-key", machineKey.Public().String())
	client, conns, err := newClient(serverURL, machineKey, serverKey, 0)
	if err != nil {
		return err
	}
	defer client.Close()

	// whoami: the server bound the connection to our machine key and version, and kept the challenge it sent us.
	me, err := getWhoami(ctx, client.Client, serverURL)
	if err != nil {
		return err
	}
	early, err := conns.first().GetEarlyPayload(ctx)
	if err != nil || early == nil {
		return fmt.Errorf("early payload: %v, %v", early, err)
	}
	fmt.Println("early-payload-challenge", early.NodeKeyChallenge.String())
	if me.MachineKey != machineKey.Public().String() || me.ProtocolVersion != int(tailcfg.CurrentCapabilityVersion) ||
		me.NodeKeyChallenge != early.NodeKeyChallenge.String() {
		return fmt.Errorf("whoami %+v does not match key %v, version %d, challenge %v", me, machineKey.Public(),
			tailcfg.CurrentCapabilityVersion, early.NodeKeyChallenge)
	}
	fmt.Println("whoami-ok", me.ProtocolVersion)

	if err := echo(ctx, client.Client, serverURL, echoBytes, echoRounds); err != nil {
		return err
	}
	if err := oneWay(ctx, client.Client, serverURL, echoBytes, echoRounds); err != nil {
		return err
	}
	if err := concurrently(ctx, client.Client, serverURL, concurrent); err != nil {
		return err
	}
	if err := stream(ctx, client.Client, serverURL, chunks, pause); err != nil {
		return err
	}
	status, err := statusOf(ctx, client.Client, "POST", serverURL+"/machine/no-such-endpoint")
	if err != nil || status != http.StatusNotFound {
		return fmt.Errorf("unknown endpoint: status %d, %v", status, err)
	}
	fmt.Println("unknown-path-status", status)
	fmt.Println("connections", conns.count())

	if err := oldClient(ctx, serverURL, serverKey); err != nil {
		return err
	}
	return refusedClient(ctx, serverURL, serverKey)
}

// checkKeyDocument decodes GET /key into Tailscale's own type, as tailscaled does.
func checkKeyDocument(ctx context.Context, serverURL string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", serverURL+"/key?v="+strconv.Itoa(int(tailcfg.CurrentCapabilityVersion)), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var keys tailcfg.OverTLSPublicKeyResponse
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<10)).Decode(&keys); err != nil {
		return fmt.Errorf("decoding /key: %w", err)
	}
	if res.StatusCode != 200 || !keys.LegacyPublicKey.IsZero() || keys.PublicKey.IsZero() {
		return fmt.Errorf("/key: status %d, %+v", res.StatusCode, keys)
	}
	fmt.Println("key-document-ok", keys.PublicKey.String())
	return nil
}

// connSet collects the Noise connections the client dials, through the same httptrace hook
// that "tailscale debug ts2021" uses.
type connSet struct {
	mu    sync.Mutex
	conns []*ts2021.Conn
}

func (s *connSet) add(c *ts2021.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, known := range s.conns {
		if known == c {
			return
		}
	}
	s.conns = append(s.conns, c)
}

func (s *connSet) first() *ts2021.Conn { s.mu.Lock(); defer s.mu.Unlock(); return s.conns[0] }
func (s *connSet) count() int          { s.mu.Lock(); defer s.mu.Unlock(); return len(s.conns) }

var traces = map[*http.Client]*connSet{}

func newClient(serverURL string, machineKey key.MachinePrivate, serverKey key.MachinePublic, version uint16) (*ts2021.Client, *connSet, error) {
	client, err := ts2021.NewClient(ts2021.ClientOpts{
		ServerURL:       serverURL,
		PrivKey:         machineKey,
		ServerPubKey:    serverKey,
		Dialer:          tsdial.NewDialer(netmon.NewStatic()),
		Logf:            func(format string, args ...any) { fmt.Fprintf(os.Stderr, "client: "+format+"\n", args...) },
		ProtocolVersion: version,
	})
	if err != nil {
		return nil, nil, err
	}
	conns := &connSet{}
	traces[client.Client] = conns
	return client, conns, nil
}

func traced(ctx context.Context, client *http.Client) context.Context {
	conns := traces[client]
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if c, ok := info.Conn.(*ts2021.Conn); ok {
			conns.add(c)
		}
	}})
}

func do(ctx context.Context, client *http.Client, method, url string, body []byte) (*http.Response, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(traced(ctx, client), method, url, reader)
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// noiseURL is how Tailscale's client spells request URLs over Noise: https, whatever the login server's scheme.
func noiseURL(serverURL, path string) string {
	u := serverURL
	if len(u) > 7 && u[:7] == "http://" {
		u = "https://" + u[7:]
	}
	return u + path
}

func getWhoami(ctx context.Context, client *http.Client, serverURL string) (whoami, error) {
	var me whoami
	res, err := do(ctx, client, "GET", noiseURL(serverURL, "/machine/test/whoami"), nil)
	if err != nil {
		return me, fmt.Errorf("whoami: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.ProtoMajor != 2 {
		return me, fmt.Errorf("whoami: %s over %s", res.Status, res.Proto)
	}
	return me, json.NewDecoder(res.Body).Decode(&me)
}

func echo(ctx context.Context, client *http.Client, serverURL string, size, rounds int) error {
	body := make([]byte, size)
	for i := range body {
		body[i] = byte(7*i + i/251)
	}
	best := time.Duration(1 << 62)
	for round := 0; round < rounds; round++ {
		start := time.Now()
		res, err := do(ctx, client, "POST", noiseURL(serverURL, "/machine/test/echo"), body)
		if err != nil {
			return fmt.Errorf("echo: %w", err)
		}
		back, err := io.ReadAll(res.Body)
		res.Body.Close()
		took := time.Since(start)
		if err != nil || res.StatusCode != 200 || !bytes.Equal(back, body) {
			return fmt.Errorf("echo round %d: status %d, %d bytes back, %v", round, res.StatusCode, len(back), err)
		}
		fmt.Println("echo-round-ms", took.Milliseconds())
		best = min(best, took)
	}
	fmt.Println("echo-bytes", size)
	fmt.Println("echo-best-ms", best.Milliseconds())
	fmt.Printf("echo-best-mib-per-s %.1f\n", float64(size)/(1<<20)/best.Seconds())
	return nil
}

// oneWay times an upload and a download of the same size separately, to see which direction costs what.
func oneWay(ctx context.Context, client *http.Client, serverURL string, size, rounds int) error {
	body := make([]byte, size)
	bestUp, bestDown := time.Duration(1<<62), time.Duration(1<<62)
	for round := 0; round < rounds; round++ {
		start := time.Now()
		res, err := do(ctx, client, "POST", noiseURL(serverURL, "/machine/test/upload"), body)
		if err != nil {
			return fmt.Errorf("upload: %w", err)
		}
		count, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || string(count) != strconv.Itoa(size) {
			return fmt.Errorf("upload: server counted %q, %v", count, err)
		}
		bestUp = min(bestUp, time.Since(start))

		start = time.Now()
		res, err = do(ctx, client, "GET", noiseURL(serverURL, "/machine/test/download?size="+strconv.Itoa(size)), nil)
		if err != nil {
			return fmt.Errorf("download: %w", err)
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err != nil || n != int64(size) {
			return fmt.Errorf("download: %d bytes, %v", n, err)
		}
		bestDown = min(bestDown, time.Since(start))
	}
	fmt.Printf("upload-best-mib-per-s %.1f\n", float64(size)/(1<<20)/bestUp.Seconds())
	fmt.Printf("download-best-mib-per-s %.1f\n", float64(size)/(1<<20)/bestDown.Seconds())
	return nil
}

func concurrently(ctx context.Context, client *http.Client, serverURL string, n int) error {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := make([]byte, 1+rand.IntN(64<<10))
			for j := range body {
				body[j] = byte(i + j)
			}
			res, err := do(ctx, client, "POST", noiseURL(serverURL, "/machine/test/echo"), body)
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			back, err := io.ReadAll(res.Body)
			if err != nil || !bytes.Equal(back, body) {
				errs <- fmt.Errorf("concurrent echo %d: %d of %d bytes, %v", i, len(back), len(body), err)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	fmt.Println("concurrent-ok", n)
	fmt.Println("concurrent-ms", time.Since(start).Milliseconds())
	return nil
}

// stream reads a /machine/map-shaped response (u32 little-endian length, then the message) message by message, and
// checks that each arrives as soon as the server flushed it, not when the response ends.
func stream(ctx context.Context, client *http.Client, serverURL string, chunks int, pause time.Duration) error {
	url := fmt.Sprintf("/machine/test/stream?chunks=%d&pauseMillis=%d&size=64", chunks, pause.Milliseconds())
	res, err := do(ctx, client, "GET", noiseURL(serverURL, url), nil)
	if err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	defer res.Body.Close()
	var maxLag, minGap time.Duration = 0, 1 << 62
	var previous time.Time
	for i := 0; i < chunks; i++ {
		var length [4]byte
		if _, err := io.ReadFull(res.Body, length[:]); err != nil {
			return fmt.Errorf("stream message %d: %w", i, err)
		}
		message := make([]byte, binary.LittleEndian.Uint32(length[:]))
		if _, err := io.ReadFull(res.Body, message); err != nil {
			return fmt.Errorf("stream message %d: %w", i, err)
		}
		arrived := time.Now()
		index := int(binary.BigEndian.Uint32(message[0:4]))
		sent := time.UnixMilli(int64(binary.BigEndian.Uint64(message[4:12])))
		if index != i {
			return fmt.Errorf("stream: message %d where %d was due", index, i)
		}
		maxLag = max(maxLag, arrived.Sub(sent))
		if i > 0 {
			minGap = min(minGap, arrived.Sub(previous))
		}
		previous = arrived
	}
	if rest, _ := io.ReadAll(res.Body); len(rest) != 0 {
		return fmt.Errorf("stream: %d bytes after the last message", len(rest))
	}
	fmt.Println("stream-messages", chunks)
	fmt.Println("stream-max-lag-ms", maxLag.Milliseconds())
	fmt.Println("stream-min-gap-ms", minGap.Milliseconds())
	if maxLag > pause/2 || minGap < pause*3/4 {
		return fmt.Errorf("stream: messages were not delivered one by one (lag up to %v, gaps down to %v, pause %v)",
			maxLag, minGap, pause)
	}
	return nil
}

func statusOf(ctx context.Context, client *http.Client, method, url string) (int, error) {
	res, err := do(ctx, client, method, noiseURL(url, ""), []byte("{}"))
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// oldClient speaks protocol version 48, from before the early payload: the server must start HTTP/2 directly.
func oldClient(ctx context.Context, serverURL string, serverKey key.MachinePublic) error {
	client, conns, err := newClient(serverURL, key.NewMachine(), serverKey, 48)
	if err != nil {
		return err
	}
	defer client.Close()
	me, err := getWhoami(ctx, client.Client, serverURL)
	if err != nil {
		return fmt.Errorf("old client: %w", err)
	}
	early, err := conns.first().GetEarlyPayload(ctx)
	if err != nil || early != nil || me.ProtocolVersion != 48 || me.NodeKeyChallenge != "" {
		return fmt.Errorf("old client: early payload %v (%v), whoami %+v", early, err, me)
	}
	fmt.Println("old-client-ok", me.ProtocolVersion)
	return nil
}

// refusedClient claims protocol version 1, from before Noise existed: the server refuses it with a Noise error frame,
// which Tailscale's dialer reports as the server's error. It uses controlhttp.Dialer directly, with an HTTPS fallback
// port where nothing listens: with no fallback at all (ts2021.Client's choice for a loopback server), the dialer
// keeps waiting after the plain-HTTP attempt failed, until its context expires, and the server's words are lost.
func refusedClient(ctx context.Context, serverURL string, serverKey key.MachinePublic) error {
	u, err := url.Parse(serverURL)
	if err != nil {
		return err
	}
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	_, closedPort, _ := net.SplitHostPort(closed.Addr().String())
	closed.Close()
	dialer := &controlhttp.Dialer{
		Hostname:        u.Hostname(),
		HTTPPort:        u.Port(),
		HTTPSPort:       closedPort,
		MachineKey:      key.NewMachine(),
		ControlKey:      serverKey,
		ProtocolVersion: 1,
		Clock:           tstime.StdClock{},
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := dialer.Dial(ctx)
	if err == nil {
		conn.Close()
	}
	if err == nil || !strings.Contains(err.Error(), `server error: "unsupported protocol version"`) {
		return fmt.Errorf("version 1 client: want the server's refusal, got %v", err)
	}
	fmt.Println("refused-client-error", err)
	return nil
}
