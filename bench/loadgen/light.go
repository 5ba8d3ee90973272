package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"tailscale.com/control/ts2021"
	"tailscale.com/tailcfg"
	"tailscale.com/types/views"
	"tailscale.com/util/zstdframe"
)

// Light mode (-light): every node registers and opens its map stream through the vendor's packages as in full
// mode (the /key fetch, the ts2021 Noise connection of control/controlbase, HTTP/2, /machine/register, then a
// streaming, zstd-compressed POST /machine/map over that same connection), but the map frames are read here
// instead of by controlclient's map session, which builds a netmap on every update: light mode checks each
// frame's length prefix, decompresses it and checks that it holds one JSON object; only a sample of nodes
// decodes the JSON into tailcfg.MapResponse and keeps its peer list. What the harness times (peer lists
// complete, endpoint and policy changes seen) it times on that sample; first maps it times on every node. In a
// mass reconnect, unsampled nodes skim full maps (takeFrame).

// sampleEvery is how often light mode fully decodes a node's maps: node i is sampled when i is a multiple.
const sampleEvery = 50

// maxFrame is the largest compressed map frame light mode accepts, as a framing check.
const maxFrame = 64 << 20

// lightPoll opens one streaming map request with the node's current endpoints and reads its frames until the
// stream ends or ctx is cancelled.
func (n *simNode) lightPoll(ctx context.Context) error {
	n.mu.Lock()
	eps := slices.Clone(n.endpoints)
	n.mu.Unlock()
	nodeKey := n.direct.GetPersist().PublicNodeKey()
	request := &tailcfg.MapRequest{
		Version:   tailcfg.CurrentCapabilityVersion,
		KeepAlive: true,
		NodeKey:   nodeKey,
		DiscoKey:  n.disco,
		Stream:    true,
		Hostinfo:  n.hostinfo,
		Compress:  "zstd",
	}
	for _, ep := range eps {
		request.Endpoints = append(request.Endpoints, ep.Addr)
		request.EndpointTypes = append(request.EndpointTypes, ep.Type)
	}
	body, err := json.Marshal(request)
	if err != nil {
		return err
	}
	url := strings.Replace(n.run.serverURL, "http:", "https:", 1) + "/machine/map"
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	ts2021.AddLBHeader(req, nodeKey)
	res, err := n.direct.DoNoiseRequest(req) // the Noise client the node registered through
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 200))
		return fmt.Errorf("map request: HTTP %d: %s", res.StatusCode, bytes.TrimSpace(msg))
	}
	gotMap := false
	for {
		frame, err := readFrame(res.Body)
		if err != nil {
			return err
		}
		keepAlive, err := n.takeFrame(frame)
		if err != nil {
			return err
		}
		if !keepAlive && !gotMap {
			gotMap = true
			n.mu.Lock()
			n.gotMap, n.failures = true, 0
			n.mu.Unlock()
			n.run.firstMap(n)
		}
	}
}

// readFrame reads one map message: a 4-byte little-endian length, then that many bytes of zstd.
func readFrame(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	k := binary.LittleEndian.Uint32(size[:])
	if k == 0 || k > maxFrame {
		return nil, fmt.Errorf("map frame of %d bytes (framing broken?)", k)
	}
	frame := make([]byte, k)
	if _, err := io.ReadFull(r, frame); err != nil {
		return nil, fmt.Errorf("map frame body: %w", err)
	}
	return frame, nil
}

// plain holds decompressed frames between uses: 10,000 nodes must not each keep a buffer the size of a full map.
var plain = sync.Pool{New: func() any { return new([]byte) }}

// decoding bounds how many large frames are decompressed at once. Decompressing is CPU work, so more at a time
// than the machine has cores finishes none sooner, while each one holds a buffer as large as its JSON: in a mass
// reconnect at N = 10,000, thousands of 13 MB buffers at once took loadgen past 18 GB. Small frames (deltas,
// keep-alives) pass freely, so a sampled node's delta never waits behind other nodes' full maps.
var decoding = make(chan struct{}, 2*runtime.GOMAXPROCS(0))

// largeFrame is the compressed size from which a frame's decompression takes a place in decoding.
const largeFrame = 64 << 10

// skimSize is the compressed size from which an unsampled node skims a frame in a mass reconnect: a keep-alive
// or a small delta is decompressed as ever, a full map is not.
const skimSize = 256

// zstdMagic starts every zstd frame (RFC 8878, little-endian 0xFD2FB528).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// takeFrame decompresses a frame and checks it is a JSON object; a sampled node also decodes and applies it.
// In a mass reconnect an unsampled node only checks that a large frame starts as zstd: there the server sends
// 10,000 maps of 13 MB of JSON at once, which the harness cannot decompress as fast as the server sends them on
// the same two cores, and the bytes it had not read yet took its memory past 14 GB. It reports whether the frame
// was a keep-alive.
func (n *simNode) takeFrame(frame []byte) (keepAlive bool, err error) {
	if !n.sampled && len(frame) >= skimSize && n.run.skimming.Load() {
		if !bytes.HasPrefix(frame, zstdMagic) {
			return false, fmt.Errorf("map frame of %d bytes is not zstd: %x", len(frame), frame[:4])
		}
		return false, nil
	}
	if len(frame) >= largeFrame {
		decoding <- struct{}{}
		defer func() { <-decoding }()
	}
	buf := plain.Get().(*[]byte)
	defer plain.Put(buf)
	b, err := zstdframe.AppendDecode((*buf)[:0], frame)
	*buf = b
	if err != nil {
		return false, fmt.Errorf("map frame: zstd: %w", err)
	}
	if !isJSONObject(b) {
		return false, fmt.Errorf("map frame is not a JSON object: %.60q", b)
	}
	if !n.sampled {
		if p := n.run.policyProbe.Load(); p != nil && p.everyNode && bytes.Contains(b, p.needle) {
			p.seen.hit(n.index, time.Time{})
		}
		return len(b) < 64 && bytes.Contains(b, []byte(`"KeepAlive":true`)), nil
	}
	var resp tailcfg.MapResponse
	if err := json.Unmarshal(b, &resp); err != nil {
		return false, fmt.Errorf("map frame: %w", err)
	}
	n.apply(&resp)
	return resp.KeepAlive, nil
}

func isJSONObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}'
}

// apply keeps a sampled node's peer list from a decoded map message, as far as the harness needs it: which
// peers it holds and their endpoints, and the packet filter rules (for the policy probe).
func (n *simNode) apply(resp *tailcfg.MapResponse) {
	type seen struct {
		id  tailcfg.NodeID
		eps []netip.AddrPort
	}
	var changed []seen
	n.mu.Lock()
	if resp.Node != nil {
		n.selfID = resp.Node.ID
	}
	if resp.Peers != nil {
		clear(n.peers)
		for _, p := range resp.Peers {
			n.peers[p.ID] = p.Endpoints
			changed = append(changed, seen{p.ID, p.Endpoints})
		}
	}
	for _, p := range resp.PeersChanged {
		n.peers[p.ID] = p.Endpoints
		changed = append(changed, seen{p.ID, p.Endpoints})
	}
	for _, id := range resp.PeersRemoved {
		delete(n.peers, id)
	}
	for _, p := range resp.PeersChangedPatch {
		if _, ok := n.peers[p.NodeID]; ok && p.Endpoints != nil {
			n.peers[p.NodeID] = p.Endpoints
			changed = append(changed, seen{p.NodeID, p.Endpoints})
		}
	}
	n.mu.Unlock()
	for _, c := range changed {
		n.run.sawEndpoints(n, c.id, views.SliceOf(c.eps))
	}
	if resp.PacketFilter != nil {
		n.run.sawPacketFilter(n, views.SliceOf(resp.PacketFilter))
	}
	for _, rules := range resp.PacketFilters {
		n.run.sawPacketFilter(n, views.SliceOf(rules))
	}
	if !resp.KeepAlive {
		n.checkComplete()
	}
}
