module io.meshcontrol/interop/wirecheck

// tailscale.com v1.102.5 is the newest release that builds with Go 1.26 (v1.104.x requires Go 1.27.1 or later).
go 1.26.6

require tailscale.com v1.102.5

require (
	github.com/dblohm7/wingoes v0.0.0-20240119213807-a09d6be7affa // indirect
	github.com/go-json-experiment/json v0.0.0-20260214004413-d219187c3433 // indirect
	github.com/klauspost/compress v1.19.1 // indirect
	go4.org/mem v0.0.0-20240501181205-ae6ca9944745 // indirect
	golang.org/x/crypto v0.54.0 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	golang.org/x/sys v0.47.0 // indirect
)
