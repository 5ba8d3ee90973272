// Command noisecheck checks Mesh Control's ts2021 Noise code against Tailscale's own (control/controlbase and
// control/ts2021), over plain TCP. The HTTP upgrade that carries the initiation in real use is not involved: the
// initiation is simply the first bytes on the connection.
//
// In client mode (the default) it dials -addr and handshakes with controlbase.Client. It then expects, in order, an
// early payload, a greeting of -greeting bytes in a fixed pattern, and an echo of everything it writes.
//
// In server mode (-serve) it listens on 127.0.0.1, prints "listen <addr>" and "server-key <mkey>", accepts one
// connection, handshakes with controlbase.Server, sends a -greeting byte greeting and echoes everything it reads
// until the client closes.
//
// Either way it prints "name value" lines on stdout for the Java test to compare and exits non-zero on the first
// failure. Mesh Control test tooling only: it links the vendor's libraries so that the check is against their code.
package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"tailscale.com/control/controlbase"
	"tailscale.com/control/ts2021"
	"tailscale.com/tailcfg"
	"tailscale.com/types/key"
)

func main() {
	addr := flag.String("addr", "", "host:port of the Noise server")
	serverKeyText := flag.String("server-key", "", "the server's public key, mkey:<hex>")
	version := flag.Int("version", int(tailcfg.CurrentCapabilityVersion), "protocol version sent in the initiation")
	greeting := flag.Int("greeting", 0, "length of the patterned greeting the server sends after the early payload")
	smallWrites := flag.Int("small-writes", 300, "number of small writes, one record each, to be echoed")
	largeWrite := flag.Int("large-write", 1<<20, "size of one large write, split into records by the client")
	serve := flag.Bool("serve", false, "be the server instead of the client")
	flag.Parse()

	var err error
	if *serve {
		err = runServer(*greeting)
	} else {
		err = run(*addr, *serverKeyText, *version, *greeting, *smallWrites, *largeWrite)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "noisecheck:", err)
		os.Exit(1)
	}
}

func run(addr, serverKeyText string, version, greeting, smallWrites, largeWrite int) error {
	var serverKey key.MachinePublic
	if err := serverKey.UnmarshalText([]byte(serverKeyText)); err != nil {
		return fmt.Errorf("parsing -server-key: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	tcp, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer tcp.Close()
	if deadline, ok := ctx.Deadline(); ok {
		tcp.SetDeadline(deadline)
	}

	machineKey := key.NewMachine()
	fmt.Println("client-key", machineKey.Public().String())
	fmt.Println("protocol-version", version)

	base, err := controlbase.Client(ctx, tcp, machineKey, serverKey, uint16(version))
	if err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	hash := base.HandshakeHash()
	fmt.Println("handshake-hash", hex.EncodeToString(hash[:]))
	fmt.Println("peer", base.Peer().String())

	conn := ts2021.NewConn(base, func() {})
	defer conn.Close()

	early, err := conn.GetEarlyPayload(ctx)
	if err != nil {
		return fmt.Errorf("early payload: %w", err)
	}
	if early == nil {
		return fmt.Errorf("early payload: none received")
	}
	fmt.Println("early-payload-challenge", early.NodeKeyChallenge.String())

	got := make([]byte, greeting)
	if _, err := io.ReadFull(conn, got); err != nil {
		return fmt.Errorf("reading greeting: %w", err)
	}
	if !bytes.Equal(got, pattern(greeting)) {
		return fmt.Errorf("greeting differs from the expected pattern")
	}
	fmt.Println("greeting-ok", greeting)

	// What we write is echoed back. Read concurrently: the large write alone exceeds what the socket buffers hold.
	var sent bytes.Buffer
	for i := 0; i < smallWrites; i++ {
		sent.Write(pattern(1 + i*37%200))
	}
	sent.Write(pattern(largeWrite))
	echoed := make(chan error, 1)
	go func() {
		back := make([]byte, sent.Len())
		if _, err := io.ReadFull(conn, back); err != nil {
			echoed <- fmt.Errorf("reading echo: %w", err)
			return
		}
		if !bytes.Equal(back, sent.Bytes()) {
			echoed <- fmt.Errorf("echo differs from what was sent")
			return
		}
		echoed <- nil
	}()

	for i := 0; i < smallWrites; i++ {
		if _, err := conn.Write(pattern(1 + i*37%200)); err != nil {
			return fmt.Errorf("small write %d: %w", i, err)
		}
	}
	if _, err := conn.Write(pattern(largeWrite)); err != nil {
		return fmt.Errorf("large write: %w", err)
	}
	if err := <-echoed; err != nil {
		return err
	}
	fmt.Println("echo-ok", sent.Len())
	return nil
}

func runServer(greeting int) error {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer listener.Close()
	serverKey := key.NewMachine()
	fmt.Println("listen", listener.Addr().String())
	fmt.Println("server-key", serverKey.Public().String())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	deadline, _ := ctx.Deadline()
	listener.(*net.TCPListener).SetDeadline(deadline) // never wait forever for a test that already failed
	tcp, err := listener.Accept()
	if err != nil {
		return err
	}
	defer tcp.Close()
	tcp.SetDeadline(deadline)

	conn, err := controlbase.Server(ctx, tcp, serverKey, nil)
	if err != nil {
		return fmt.Errorf("handshake: %w", err)
	}
	hash := conn.HandshakeHash()
	fmt.Println("client-key", conn.Peer().String())
	fmt.Println("protocol-version", conn.ProtocolVersion())
	fmt.Println("handshake-hash", hex.EncodeToString(hash[:]))

	if _, err := conn.Write(pattern(greeting)); err != nil {
		return fmt.Errorf("writing greeting: %w", err)
	}
	echoed, err := io.Copy(conn, conn)
	if err != nil {
		return fmt.Errorf("echoing: %w", err)
	}
	fmt.Println("echoed", echoed)
	return nil
}

// pattern is the byte sequence both sides generate: byte i is (7*i + i/251) mod 256.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(7*i + i/251)
	}
	return b
}
