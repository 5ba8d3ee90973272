module meshcontrol.io/interop/gov2

go 1.26

require tailscale.com/client/tailscale/v2 v2.10.1

require (
	github.com/tailscale/hujson v0.0.0-20220506213045-af5ed07155e5 // indirect
	golang.org/x/oauth2 v0.34.0 // indirect
)
