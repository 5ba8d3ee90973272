package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
)

// printFreePorts prints k TCP ports that are free on 127.0.0.1 right now, for scripts that start a server
// (bench/run). They are found by listening on port 0 and closing again.
func printFreePorts(k string) {
	count, err := strconv.Atoi(k)
	if err != nil || count < 1 {
		fmt.Fprintln(os.Stderr, "loadgen: -free-ports wants a positive count")
		os.Exit(2)
	}
	var ls []net.Listener
	for range count {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
		ls = append(ls, l)
		fmt.Println(l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
}
