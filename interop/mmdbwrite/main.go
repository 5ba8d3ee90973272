// Command mmdbwrite writes a small MaxMind-format database for tests, with MaxMind's own writer: the
// GeoLite2-City layout (country.iso_code, country.names.en, city.names.en) for the networks given.
//
// Usage: mmdbwrite OUT.mmdb NETWORK=COUNTRY[/CITY] ...   e.g. 203.0.113.0/24=US/Boston 2001:db8::/32=CA
package main

import (
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mmdbwrite OUT.mmdb NETWORK=COUNTRY[/CITY] ...")
		os.Exit(2)
	}
	tree, err := mmdbwriter.New(mmdbwriter.Options{
		DatabaseType: "GeoLite2-City",
		Description:  map[string]string{"en": "Mesh Control test database"},
		Languages:    []string{"en"},
		// Test networks (documentation ranges) are reserved: let them in.
		IncludeReservedNetworks: true,
		RecordSize:              24,
	})
	if err != nil {
		fail(err)
	}
	for _, arg := range os.Args[2:] {
		network, place, ok := strings.Cut(arg, "=")
		if !ok {
			fail(fmt.Errorf("%q: want NETWORK=COUNTRY[/CITY]", arg))
		}
		_, prefix, err := net.ParseCIDR(network)
		if err != nil {
			fail(err)
		}
		country, city, _ := strings.Cut(place, "/")
		record := mmdbtype.Map{
			"country": mmdbtype.Map{
				"iso_code": mmdbtype.String(country),
				"names":    mmdbtype.Map{"en": mmdbtype.String(country)},
			},
		}
		if city != "" {
			record["city"] = mmdbtype.Map{"names": mmdbtype.Map{"en": mmdbtype.String(city)}}
		}
		if err := tree.Insert(prefix, record); err != nil {
			fail(err)
		}
	}
	out, err := os.Create(os.Args[1])
	if err != nil {
		fail(err)
	}
	if _, err := tree.WriteTo(out); err != nil {
		fail(err)
	}
	if err := out.Close(); err != nil {
		fail(err)
	}
	fmt.Println("written", os.Args[1])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mmdbwrite:", err)
	os.Exit(1)
}
