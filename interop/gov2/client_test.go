// Package gov2 drives the vendor's Go API client (what its Terraform provider and Kubernetes operator are built on)
// against a Mesh Control server and checks that every answer decodes strictly into the client's own types.
package gov2

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tsclient "tailscale.com/client/tailscale/v2"
)

// recorder keeps the body of the last answer, so each test can decode it again strictly.
type recorder struct {
	mu   sync.Mutex
	last []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.last = body
	r.mu.Unlock()
	return resp, nil
}

func (r *recorder) body() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// session is one authenticated client and the recorder behind it.
type session struct {
	c   *tsclient.Client
	rec *recorder
}

// sessions are the ways the tests authenticate: an API key always, OAuth client credentials when configured.
func sessions(t *testing.T) map[string]session {
	base := os.Getenv("MESH_BASE_URL")
	if base == "" {
		t.Skip("MESH_BASE_URL is not set: run through VendorGoClientInteropTest")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	newSession := func(configure func(*tsclient.Client)) session {
		rec := &recorder{}
		c := &tsclient.Client{BaseURL: u, HTTP: &http.Client{Transport: rec, Timeout: time.Minute}}
		configure(c)
		return session{c: c, rec: rec}
	}
	out := map[string]session{"api-key": newSession(func(c *tsclient.Client) { c.APIKey = os.Getenv("MESH_API_KEY") })}
	// OAuth-authenticated runs: set by the Java side once the server issues OAuth access tokens.
	if id, secret := os.Getenv("MESH_OAUTH_CLIENT_ID"), os.Getenv("MESH_OAUTH_CLIENT_SECRET"); id != "" {
		out["oauth"] = newSession(func(c *tsclient.Client) {
			c.Auth = &tsclient.OAuth{ClientID: id, ClientSecret: secret}
		})
	}
	return out
}

// strict decodes the last answer into T, refusing fields T does not have, and checks that keys are present.
func strict[T any](t *testing.T, s session, keys ...string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(bytes.NewReader(s.rec.body()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("answer does not decode strictly into %T: %v\n%s", v, err, s.rec.body())
	}
	requireKeys(t, s.rec.body(), keys...)
	return v
}

// requireKeys checks that a JSON object (or the first element of its only list) has every key.
func requireKeys(t *testing.T, body []byte, keys ...string) {
	t.Helper()
	if len(keys) == 0 {
		return
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(body, &object); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, body)
	}
	if len(object) == 1 {
		for _, only := range object {
			var list []map[string]json.RawMessage
			if json.Unmarshal(only, &list) == nil && len(list) > 0 {
				object = list[0]
			}
		}
	}
	for _, key := range keys {
		if _, ok := object[key]; !ok {
			t.Errorf("field %q missing from %s", key, body)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func status(err error) int {
	var apiErr tsclient.APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	return 0
}

var deviceKeys = []string{"addresses", "authorized", "blocksIncomingConnections", "clientVersion", "created", "id",
	"keyExpiryDisabled", "machineKey", "nodeId", "nodeKey", "os", "tags", "tailnetLockError", "tailnetLockKey",
	"updateAvailable", "user", "name", "hostname", "isExternal", "connectedToControl", "isEphemeral"}

func TestDevices(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			devices, err := s.c.Devices().List(ctx)
			must(t, err)
			strict[map[string][]tsclient.Device](t, s, deviceKeys...)
			if len(devices) < 2 {
				t.Fatalf("want the seeded laptop and router, got %d devices", len(devices))
			}
			_, err = s.c.Devices().ListWithAllFields(ctx)
			must(t, err)
			strict[map[string][]tsclient.Device](t, s, append(deviceKeys, "enabledRoutes", "advertisedRoutes",
				"clientConnectivity", "sshEnabled", "distro")...)
			var router tsclient.Device
			for _, d := range devices {
				if d.Hostname == "router" {
					router = d
				}
			}
			filtered, err := s.c.Devices().List(ctx, tsclient.WithFilter("hostname", []string{"router"}))
			must(t, err)
			if len(filtered) != 1 || filtered[0].NodeID != router.NodeID {
				t.Fatalf("filter hostname=router gave %v", filtered)
			}

			got, err := s.c.Devices().Get(ctx, router.NodeID)
			must(t, err)
			strict[tsclient.Device](t, s, deviceKeys...)
			if got.ID != router.ID {
				t.Fatalf("by nodeId: id %s, want %s", got.ID, router.ID)
			}
			_, err = s.c.Devices().GetWithAllFields(ctx, router.ID)
			must(t, err)
			strict[tsclient.Device](t, s, "advertisedRoutes", "enabledRoutes")

			must(t, s.c.Devices().SetAuthorized(ctx, router.ID, true))
			must(t, s.c.Devices().SetName(ctx, router.ID, "gateway-"+name))
			must(t, s.c.Devices().SetKey(ctx, router.ID, tsclient.DeviceKey{KeyExpiryDisabled: true}))
			must(t, s.c.Devices().SetTags(ctx, router.ID, []string{"tag:router"}))
			ipv4 := map[string]string{"api-key": "100.64.9.1", "oauth": "100.64.9.2"}[name]
			must(t, s.c.Devices().SetIPv4Address(ctx, router.NodeID, ipv4))
			got, err = s.c.Devices().Get(ctx, router.ID)
			must(t, err)
			if !strings.HasPrefix(got.Name, "gateway-"+name+".") || !got.KeyExpiryDisabled || !slices.Equal(got.Tags, []string{"tag:router"}) {
				t.Fatalf("changes not visible: %+v", got)
			}
			if len(got.Addresses) == 0 || got.Addresses[0] != ipv4 {
				t.Fatalf("address not changed: %v", got.Addresses)
			}
			if err := s.c.Devices().SetIPv4Address(ctx, router.ID, "10.0.0.1"); status(err) != 400 {
				t.Fatalf("an address outside the prefix: %v", err)
			}

			routes, err := s.c.Devices().SubnetRoutes(ctx, router.ID)
			must(t, err)
			strict[tsclient.DeviceRoutes](t, s, "advertisedRoutes", "enabledRoutes")
			if !slices.Equal(routes.Advertised, []string{"10.1.0.0/16"}) {
				t.Fatalf("advertised %v", routes.Advertised)
			}
			must(t, s.c.Devices().SetSubnetRoutes(ctx, router.ID, []string{"10.1.0.0/16"}))
			routes, err = s.c.Devices().SubnetRoutes(ctx, router.ID)
			must(t, err)
			if !slices.Equal(routes.Enabled, []string{"10.1.0.0/16"}) {
				t.Fatalf("enabled %v", routes.Enabled)
			}

			must(t, s.c.Devices().SetPostureAttribute(ctx, router.ID, "custom:tier",
				tsclient.DevicePostureAttributeRequest{Value: "gold", Comment: "set by gov2"}))
			attributes, err := s.c.Devices().GetPostureAttributes(ctx, router.ID)
			must(t, err)
			strict[tsclient.DevicePostureAttributes](t, s, "attributes", "expiries")
			if attributes.Attributes["custom:tier"] != "gold" {
				t.Fatalf("attributes %v", attributes.Attributes)
			}
			must(t, s.c.Devices().DeletePostureAttribute(ctx, router.ID, "custom:tier"))

			// The data sources: tailscale_device by its full name, tailscale_devices by a list field and a boolean.
			byName, err := s.c.Devices().List(ctx, tsclient.WithFilter("name", []string{got.Name}))
			must(t, err)
			if len(byName) != 1 || byName[0].NodeID != router.NodeID {
				t.Fatalf("filter name=%s gave %v", got.Name, byName)
			}
			tagged, err := s.c.Devices().List(ctx, tsclient.WithFilter("tags", []string{"tag:router"}),
				tsclient.WithFilter("isEphemeral", []string{"false"}))
			must(t, err)
			if len(tagged) != 1 || tagged[0].NodeID != router.NodeID {
				t.Fatalf("filter tags=tag:router&isEphemeral=false gave %v", tagged)
			}

			// What the provider sends when tailscale_device_tags, _key and _subnet_routes are destroyed. A device
			// handed to its tags has no user to go back to: removing its last tag is refused, naming why.
			err = s.c.Devices().SetTags(ctx, router.ID, []string{})
			if status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "keeps at least one tag") {
				t.Fatalf("tags [] on a device that belongs to its tags: want 400, got %v", err)
			}
			must(t, s.c.Devices().SetKey(ctx, router.ID, tsclient.DeviceKey{KeyExpiryDisabled: false}))
			must(t, s.c.Devices().SetSubnetRoutes(ctx, router.ID, []string{}))
			routes, err = s.c.Devices().SubnetRoutes(ctx, router.ID)
			must(t, err)
			if len(routes.Enabled) != 0 || len(routes.Advertised) != 1 {
				t.Fatalf("routes [] approves none: %+v", routes)
			}
			must(t, s.c.Devices().SetSubnetRoutes(ctx, router.ID, []string{"10.1.0.0/16"}))

			_, err = s.c.Devices().Get(ctx, "nNOSUCHCNTRL")
			if !tsclient.IsNotFound(err) {
				t.Fatalf("unknown device: want a 404 the client recognises, got %v", err)
			}
		})
	}
}

func TestDeviceDelete(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			devices, err := s.c.Devices().List(ctx, tsclient.WithFilter("hostname", []string{"spare-" + name}))
			must(t, err)
			if len(devices) != 1 {
				t.Fatalf("want the seeded spare-%s, got %v", name, devices)
			}
			must(t, s.c.Devices().Delete(ctx, devices[0].NodeID))
			if err := s.c.Devices().Delete(ctx, devices[0].NodeID); !tsclient.IsNotFound(err) {
				t.Fatalf("deleting again: want 404, got %v", err)
			}
		})
	}
}

const policy = `// written by gov2
{
	"tagOwners": {"tag:router": ["odin@example.com"]},
	"acls": [{"action": "accept", "src": ["odin@example.com"], "dst": ["*:22"]}],
	"tests": [{"src": "odin@example.com", "accept": ["100.64.0.1:22"]}],
}
`

func TestPolicyFile(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			raw, err := s.c.PolicyFile().Raw(ctx)
			must(t, err)
			if raw.ETag == "" {
				t.Fatal("no ETag")
			}
			text := strings.Replace(policy, "gov2", "gov2 "+name, 1)
			must(t, s.c.PolicyFile().Validate(ctx, text))
			must(t, s.c.PolicyFile().Set(ctx, text, raw.ETag))
			if err := s.c.PolicyFile().Set(ctx, text, raw.ETag); status(err) != http.StatusPreconditionFailed {
				t.Fatalf("stale ETag: want 412, got %v", err)
			}
			raw, err = s.c.PolicyFile().Raw(ctx)
			must(t, err)
			if raw.HuJSON != text {
				t.Fatalf("HuJSON not kept as written:\n%s", raw.HuJSON)
			}
			acl, err := s.c.PolicyFile().Get(ctx)
			must(t, err)
			strict[tsclient.ACL](t, s, "acls", "tagOwners", "tests")
			if acl.ETag != raw.ETag || len(acl.ACLs) != 1 {
				t.Fatalf("JSON form: %+v", acl)
			}
			acl.ACLs[0].Destination = []string{"*:22", "*:443"}
			updated, err := s.c.PolicyFile().SetAndGet(ctx, *acl, acl.ETag)
			must(t, err)
			if updated.ETag == acl.ETag || len(updated.ACLs[0].Destination) != 2 {
				t.Fatalf("SetAndGet: %+v", updated)
			}

			failing := strings.Replace(text, "100.64.0.1:22", "100.64.0.1:80", 1)
			// Validate turns the 200 answer's message and data into its own error text.
			err = s.c.PolicyFile().Validate(ctx, failing)
			if err == nil || !strings.Contains(err.Error(), "test(s) failed") ||
				!strings.Contains(err.Error(), "odin@example.com") || !strings.Contains(err.Error(), "100.64.0.1:80") {
				t.Fatalf("failing tests: want the vendor's test(s) failed with data, got %v", err)
			}
			err = s.c.PolicyFile().Set(ctx, failing, "")
			var apiErr tsclient.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || apiErr.Message != "test(s) failed" ||
				len(apiErr.Data) != 1 || apiErr.Data[0].User != "odin@example.com" {
				t.Fatalf("saving failing tests: want 400 test(s) failed with data, got %#v", err)
			}

			// Validate with a list of tests runs them against the policy in force (which allows *:22 and *:443).
			must(t, s.c.PolicyFile().Validate(ctx, []tsclient.ACLTest{{Source: "odin@example.com",
				Accept: []string{"100.64.0.1:443"}}}))
			err = s.c.PolicyFile().Validate(ctx, []tsclient.ACLTest{{Source: "odin@example.com",
				Accept: []string{"100.64.0.1:80"}}})
			if err == nil || !strings.Contains(err.Error(), "test(s) failed") {
				t.Fatalf("failing tests against the policy in force: got %v", err)
			}

			// tailscale_acl destroyed with reset_acl_on_destroy posts an empty body: the default policy is back,
			// which a new tailscale_acl then replaces with If-Match "ts-default".
			must(t, s.c.PolicyFile().Set(ctx, "", ""))
			must(t, s.c.PolicyFile().Set(ctx, text, "ts-default"))
			if err := s.c.PolicyFile().Set(ctx, text, "ts-default"); status(err) != http.StatusPreconditionFailed {
				t.Fatalf("ts-default once a policy was saved: want 412, got %v", err)
			}
		})
	}
}

func TestDNS(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			dns := s.c.DNS()
			must(t, dns.SetNameservers(ctx, []string{"9.9.9.9", "1.1.1.1"}))
			servers, err := dns.Nameservers(ctx)
			must(t, err)
			if !slices.Equal(servers, []string{"9.9.9.9", "1.1.1.1"}) { // in the order given: tailscale_dns_nameservers
				t.Fatalf("nameservers %v", servers)
			}
			must(t, dns.SetSearchPaths(ctx, []string{"corp.example"}))
			paths, err := dns.SearchPaths(ctx)
			must(t, err)
			if !slices.Equal(paths, []string{"corp.example"}) {
				t.Fatalf("search paths %v", paths)
			}
			prefs, err := dns.Preferences(ctx)
			must(t, err)
			strict[tsclient.DNSPreferences](t, s, "magicDNS")
			must(t, dns.SetPreferences(ctx, *prefs))
			// magicDNS is the configuration file's: changing it is refused, on both resources.
			if err := dns.SetPreferences(ctx, tsclient.DNSPreferences{MagicDNS: !prefs.MagicDNS}); status(err) != 400 {
				t.Fatalf("changing magicDNS through preferences: want 400, got %v", err)
			}
			if err := dns.SetConfiguration(ctx, tsclient.DNSConfiguration{Preferences: tsclient.DNSConfigurationPreferences{
				MagicDNS: !prefs.MagicDNS}}); status(err) != 400 {
				t.Fatalf("changing magicDNS through the configuration: want 400, got %v", err)
			}

			merged, err := dns.UpdateSplitDNS(ctx, tsclient.SplitDNSRequest{"a.example": {"10.0.0.53"}})
			must(t, err)
			if !slices.Equal(merged["a.example"], []string{"10.0.0.53"}) {
				t.Fatalf("split DNS after PATCH %v", merged)
			}
			merged, err = dns.UpdateSplitDNS(ctx, tsclient.SplitDNSRequest{"a.example": nil})
			must(t, err)
			if _, kept := merged["a.example"]; kept {
				t.Fatalf("null removes a domain: %v", merged)
			}
			must(t, dns.SetSplitDNS(ctx, tsclient.SplitDNSRequest{"b.example": {"10.0.0.54"}}))
			split, err := dns.SplitDNS(ctx)
			must(t, err)
			if len(split) != 1 || split["b.example"][0] != "10.0.0.54" {
				t.Fatalf("split DNS after PUT %v", split)
			}

			config := tsclient.DNSConfiguration{
				Nameservers: []tsclient.DNSConfigurationResolver{{Address: "1.1.1.1", UseWithExitNode: true}},
				SplitDNS:    map[string][]tsclient.DNSConfigurationResolver{"corp.example": {{Address: "10.0.0.53"}}},
				SearchPaths: []string{"a.example"},
				Preferences: tsclient.DNSConfigurationPreferences{OverrideLocalDNS: true, MagicDNS: true},
			}
			must(t, dns.SetConfiguration(ctx, config))
			got, err := dns.Configuration(ctx)
			must(t, err)
			strict[tsclient.DNSConfiguration](t, s, "nameservers", "splitDNS", "searchPaths", "preferences")
			if !got.Nameservers[0].UseWithExitNode || !got.Preferences.OverrideLocalDNS || got.SearchPaths[0] != "a.example" {
				t.Fatalf("configuration %+v", got)
			}
		})
	}
}

func TestTailnetSettings(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			settings, err := s.c.TailnetSettings().Get(ctx)
			must(t, err)
			strict[tsclient.TailnetSettings](t, s, "aclsExternallyManagedOn", "aclsExternalLink", "devicesApprovalOn",
				"devicesAutoUpdatesOn", "devicesKeyDurationDays", "usersApprovalOn",
				"usersRoleAllowedToJoinExternalTailnets", "networkFlowLoggingOn", "regionalRoutingOn",
				"postureIdentityCollectionOn", "httpsEnabled")
			on, days := !settings.DevicesApprovalOn, 30
			// The provider always sends the two ACL fields, as they are.
			must(t, s.c.TailnetSettings().Update(ctx, tsclient.UpdateTailnetSettingsRequest{
				ACLsExternallyManagedOn: &settings.ACLsExternallyManagedOn, ACLsExternalLink: &settings.ACLsExternalLink,
				DevicesApprovalOn: &on, DevicesKeyDurationDays: &days, PostureIdentityCollectionOn: &on,
				UsersApprovalOn: &on}))
			after, err := s.c.TailnetSettings().Get(ctx)
			must(t, err)
			if after.DevicesApprovalOn != on || after.UsersApprovalOn != on || after.PostureIdentityCollectionOn != on ||
				after.DevicesKeyDurationDays != days {
				t.Fatalf("settings after update %+v", after)
			}
			logging := true
			err = s.c.TailnetSettings().Update(ctx, tsclient.UpdateTailnetSettingsRequest{NetworkFlowLoggingOn: &logging})
			if status(err) != http.StatusBadRequest {
				t.Fatalf("a read-only setting: want 400, got %v", err)
			}
			tooLong := 181
			err = s.c.TailnetSettings().Update(ctx, tsclient.UpdateTailnetSettingsRequest{DevicesKeyDurationDays: &tooLong})
			if status(err) != http.StatusBadRequest {
				t.Fatalf("devicesKeyDurationDays 181: want 400, got %v", err)
			}
		})
	}
}

func TestUsers(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			users, err := s.c.Users().List(ctx, nil, nil)
			must(t, err)
			strict[map[string][]tsclient.User](t, s, "id", "displayName", "loginName", "profilePicUrl", "tailnetId",
				"created", "type", "role", "status", "deviceCount", "currentlyConnected")
			var odin *tsclient.User
			for i := range users {
				if users[i].LoginName == "odin@example.com" {
					odin = &users[i]
				}
			}
			if odin == nil {
				t.Fatalf("the seeded user is not listed: %v", users)
			}
			member := tsclient.UserTypeMember
			members, err := s.c.Users().List(ctx, &member, nil)
			must(t, err)
			if len(members) != len(users) {
				t.Fatalf("type=member: %d of %d", len(members), len(users))
			}
			got, err := s.c.Users().Get(ctx, odin.ID)
			must(t, err)
			strict[tsclient.User](t, s)
			if got.LoginName != odin.LoginName || got.Created.IsZero() {
				t.Fatalf("user %+v", got)
			}
			if _, err := s.c.Users().Get(ctx, "999999"); !tsclient.IsNotFound(err) {
				t.Fatalf("an unknown user: want 404, got %v", err)
			}
		})
	}
}

func TestServices(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			svcName := "svc:web-" + name
			must(t, s.c.Services().CreateOrUpdate(ctx, tsclient.Service{Name: svcName, Comment: "gov2",
				Ports: []string{"tcp:443"}, Tags: []string{"tag:router"},
				Annotations: map[string]string{"tailscale.com/owner-references": "gov2"}}))
			got, err := s.c.Services().Get(ctx, svcName)
			must(t, err)
			strict[tsclient.Service](t, s, "name", "addrs", "ports", "tags", "annotations")
			if len(got.Addrs) != 2 || got.Annotations["tailscale.com/owner-references"] != "gov2" {
				t.Fatalf("service %+v", got)
			}
			got.Ports = []string{"tcp:80"}
			must(t, s.c.Services().CreateOrUpdate(ctx, *got))
			list, err := s.c.Services().List(ctx)
			must(t, err)
			strict[map[string][]tsclient.Service](t, s)
			if !slices.ContainsFunc(list, func(x tsclient.Service) bool { return x.Name == svcName && x.Ports[0] == "tcp:80" }) {
				t.Fatalf("list %v", list)
			}
			moved := *got
			moved.Addrs = []string{got.Addrs[0], "fd7a:115c:a1e0::1"}
			if err := s.c.Services().CreateOrUpdate(ctx, moved); status(err) != http.StatusBadRequest {
				t.Fatalf("other addresses than the service's: want 400, got %v", err)
			}
			must(t, s.c.Services().Delete(ctx, svcName))
			if _, err := s.c.Services().Get(ctx, svcName); !tsclient.IsNotFound(err) {
				t.Fatalf("deleted service: want 404, got %v", err)
			}
			if err := s.c.Services().Delete(ctx, svcName); !tsclient.IsNotFound(err) {
				t.Fatalf("deleting again: want 404 (which the provider ignores), got %v", err)
			}
		})
	}
}

func TestPostureIntegrations(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			provider := map[string]tsclient.PostureIntegrationProvider{"api-key": tsclient.PostureIntegrationProviderKolide,
				"oauth": tsclient.PostureIntegrationProviderKandji}[name]
			created, err := s.c.DevicePosture().CreateIntegration(ctx, tsclient.CreatePostureIntegrationRequest{
				Provider: provider, ClientID: "id", ClientSecret: "secret"})
			must(t, err)
			strict[tsclient.PostureIntegration](t, s, "id", "provider")
			secret := "rotated"
			_, err = s.c.DevicePosture().UpdateIntegration(ctx, created.ID, tsclient.UpdatePostureIntegrationRequest{
				ClientSecret: &secret})
			must(t, err)
			got, err := s.c.DevicePosture().GetIntegration(ctx, created.ID)
			must(t, err)
			if got.ClientID != "id" || got.Provider != provider {
				t.Fatalf("integration %+v", got)
			}
			list, err := s.c.DevicePosture().ListIntegrations(ctx)
			must(t, err)
			strict[map[string][]tsclient.PostureIntegration](t, s)
			if len(list) == 0 {
				t.Fatal("no integrations listed")
			}
			for _, refused := range []tsclient.PostureIntegrationProvider{tsclient.PostureIntegrationProviderFleet,
				tsclient.PostureIntegrationProviderHuntress} {
				_, err = s.c.DevicePosture().CreateIntegration(ctx, tsclient.CreatePostureIntegrationRequest{
					Provider: refused, ClientSecret: "x"})
				if status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), string(refused)) {
					t.Fatalf("%s: want 400 naming it, got %v", refused, err)
				}
			}
			must(t, s.c.DevicePosture().DeleteIntegration(ctx, created.ID))
		})
	}
}

func TestLogstreamConfiguration(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			// What the Terraform provider (mesh_logstream_configuration) sends: its defaults included.
			want := tsclient.SetLogstreamConfigurationRequest{
				DestinationType:     tsclient.LogstreamSplunkEndpoint,
				URL:                 "https://splunk.example:8088/services/collector/event",
				User:                "user",
				Token:               "hec-" + name,
				UploadPeriodMinutes: 5,
				CompressionFormat:   tsclient.CompressionFormatNone,
			}
			must(t, s.c.Logging().SetLogstreamConfiguration(ctx, tsclient.LogTypeConfig, want))
			got, err := s.c.Logging().LogstreamConfiguration(ctx, tsclient.LogTypeConfig)
			must(t, err)
			strict[tsclient.LogstreamConfiguration](t, s, "logType", "destinationType", "url", "user",
				"uploadPeriodMinutes", "compressionFormat")
			if got.LogType != tsclient.LogTypeConfig || got.DestinationType != want.DestinationType ||
				got.URL != want.URL || got.User != want.User || got.UploadPeriodMinutes != 5 ||
				got.CompressionFormat != want.CompressionFormat {
				t.Fatalf("read back %+v, want what was set: %+v", got, want)
			}
			if strings.Contains(string(s.rec.body()), want.Token) {
				t.Fatalf("the token is shown: %s", s.rec.body())
			}
			// A second PUT replaces the destination (Terraform's update).
			want.DestinationType, want.URL = tsclient.LogstreamEndpointType("loki"), "https://loki.example/loki/api/v1/push"
			must(t, s.c.Logging().SetLogstreamConfiguration(ctx, tsclient.LogTypeConfig, want))
			got, err = s.c.Logging().LogstreamConfiguration(ctx, tsclient.LogTypeConfig)
			must(t, err)
			if got.DestinationType != "loki" || got.URL != want.URL {
				t.Fatalf("after update %+v", got)
			}
			must(t, s.c.Logging().DeleteLogstreamConfiguration(ctx, tsclient.LogTypeConfig))
			if _, err := s.c.Logging().LogstreamConfiguration(ctx, tsclient.LogTypeConfig); !tsclient.IsNotFound(err) {
				t.Fatalf("deleted stream: want 404 (Terraform reads it as removed), got %v", err)
			}

			s3 := tsclient.SetLogstreamConfigurationRequest{DestinationType: tsclient.LogstreamS3Endpoint,
				S3Bucket: "b", S3Region: "eu-west-1", S3AuthenticationType: tsclient.S3RoleARNAuthentication,
				S3RoleARN: "arn:aws:iam::1:role/r"}
			err = s.c.Logging().SetLogstreamConfiguration(ctx, tsclient.LogTypeConfig, s3)
			if status(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "s3") {
				t.Fatalf("s3: want 400 naming it, got %v", err)
			}
			err = s.c.Logging().SetLogstreamConfiguration(ctx, tsclient.LogTypeNetwork, want)
			if !tsclient.IsNotFound(err) {
				t.Fatalf("network stream: want 404, got %v", err)
			}
			if _, err := s.c.Logging().LogstreamConfiguration(ctx, tsclient.LogTypeNetwork); !tsclient.IsNotFound(err) {
				t.Fatalf("reading the network stream: want 404, got %v", err)
			}
		})
	}
}

func TestNetworkFlowLogs(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			end := time.Now()
			count := 0
			err := s.c.Logging().GetNetworkFlowLogs(ctx, tsclient.NetworkFlowLogsRequest{Start: end.Add(-time.Hour),
				End: end}, func(tsclient.NetworkFlowLog) error {
				count++
				return nil
			})
			// Not an empty list, which would say that nothing happened: the client reports the server has none at
			// all (this method gives the status and body as text, not an APIError).
			if err == nil || !strings.HasPrefix(err.Error(), "HTTP 501: ") ||
				!strings.Contains(err.Error(), "network flow logs are not collected") || count != 0 {
				t.Fatalf("flow logs: want 501 saying they are not collected, got %v (%d logs)", err, count)
			}
		})
	}
}

func TestUnsupportedResourcesAre404(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := s.c.Contacts().Get(ctx); !tsclient.IsNotFound(err) {
				t.Fatalf("contacts: want 404, got %v", err)
			}
			email := "security@example.com"
			err := s.c.Contacts().Update(ctx, tsclient.ContactSecurity, tsclient.UpdateContactRequest{Email: &email})
			if !tsclient.IsNotFound(err) {
				t.Fatalf("updating contacts: want 404, got %v", err)
			}
			if _, err := s.c.Logging().CreateOrGetAwsExternalId(ctx, false); !tsclient.IsNotFound(err) {
				t.Fatalf("AWS external id: want 404, got %v", err)
			}
			if err := s.c.Logging().ValidateAWSTrustPolicy(ctx, "x", "arn:aws:iam::1:role/r"); !tsclient.IsNotFound(err) {
				t.Fatalf("AWS trust policy: want 404, got %v", err)
			}
			other, _ := url.Parse(os.Getenv("MESH_BASE_URL"))
			c := &tsclient.Client{BaseURL: other, APIKey: os.Getenv("MESH_API_KEY"), Tailnet: "example.com"}
			if _, err := c.Devices().List(ctx); !tsclient.IsNotFound(err) {
				t.Fatalf("another tailnet: want 404, got %v", err)
			}
		})
	}
}

// TestKeys drives the keys resource the way tailscale_tailnet_key, tailscale_oauth_client and
// tailscale_federated_identity do: create, read (expirySeconds echoed, the secret only on create), update in place,
// list, and delete (a deleted auth key reads as invalid; a deleted client or identity is gone: read 404, not
// listed, as tailscale_oauth_client and tailscale_federated_identity read "removed").
func TestKeys(t *testing.T) {
	ctx := context.Background()
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			keys := s.c.Keys()
			var request tsclient.CreateKeyRequest
			request.Capabilities.Devices.Create.Reusable = true
			request.Capabilities.Devices.Create.Preauthorized = true
			request.Capabilities.Devices.Create.Tags = []string{"tag:router"}
			request.ExpirySeconds = 3600
			request.Description = "gov2 " + name
			// The library types expirySeconds as a time.Duration but decodes the number as is: 3600 reads as 3600ns.
			const anHour = time.Duration(3600)
			created, err := keys.CreateAuthKey(ctx, request)
			must(t, err)
			strict[tsclient.Key](t, s, "id", "key", "keyType", "created", "expires", "expirySeconds", "capabilities",
				"description", "invalid")
			if created.Key == "" || created.KeyType != "auth" || created.ExpirySeconds == nil ||
				*created.ExpirySeconds != anHour || !created.Capabilities.Devices.Create.Reusable {
				t.Fatalf("created auth key %+v", created)
			}
			read, err := keys.Get(ctx, created.ID)
			must(t, err)
			strict[tsclient.Key](t, s, "id", "keyType", "created", "expires", "expirySeconds", "capabilities", "invalid")
			if read.Key != "" || read.KeyType != "auth" || read.Invalid || *read.ExpirySeconds != anHour ||
				!slices.Equal(read.Capabilities.Devices.Create.Tags, []string{"tag:router"}) ||
				read.Description != "gov2 "+name {
				t.Fatalf("read auth key %+v", read)
			}
			// The provider sends expirySeconds 0 when none is configured: the vendor's default of 90 days.
			defaulted, err := keys.CreateAuthKey(ctx, tsclient.CreateKeyRequest{Capabilities: request.Capabilities})
			must(t, err)
			if days := defaulted.Expires.Sub(defaulted.Created).Hours() / 24; days != 90 {
				t.Fatalf("expirySeconds 0: %v days", days)
			}
			listed, err := keys.List(ctx, false)
			must(t, err)
			strict[map[string][]tsclient.Key](t, s)
			if !slices.ContainsFunc(listed, func(k tsclient.Key) bool { return k.ID == created.ID }) {
				t.Fatalf("list %v", listed)
			}
			must(t, keys.Delete(ctx, created.ID))
			revoked(t, s, created.ID)
			must(t, keys.Delete(ctx, defaulted.ID))

			client, err := keys.CreateOAuthClient(ctx, tsclient.CreateOAuthClientRequest{
				Scopes: []string{"auth_keys", "devices:core:read"}, Tags: []string{"tag:router"}, Description: "gov2"})
			must(t, err)
			strict[tsclient.Key](t, s, "id", "key", "keyType", "created", "scopes", "tags", "description")
			if client.KeyType != "client" || client.Key == "" ||
				!slices.Equal(client.Scopes, []string{"auth_keys", "devices:core:read"}) {
				t.Fatalf("created client %+v", client)
			}
			updated, err := keys.SetOAuthClient(ctx, client.ID, tsclient.SetOAuthClientRequest{
				Scopes: []string{"auth_keys"}, Tags: []string{"tag:router"}, Description: "gov2 updated"})
			must(t, err)
			strict[tsclient.Key](t, s, "id", "keyType", "created", "updated", "scopes", "tags", "description")
			if updated.ID != client.ID || updated.Key != "" || !slices.Equal(updated.Scopes, []string{"auth_keys"}) ||
				updated.Description != "gov2 updated" || updated.Updated.IsZero() {
				t.Fatalf("updated client %+v", updated)
			}
			read, err = keys.Get(ctx, client.ID)
			must(t, err)
			if read.Key != "" || read.Description != "gov2 updated" {
				t.Fatalf("read client %+v", read)
			}
			must(t, keys.Delete(ctx, client.ID))
			gone(t, s, client.ID)

			identity, err := keys.CreateFederatedIdentity(ctx, tsclient.CreateFederatedIdentityRequest{
				Scopes: []string{"auth_keys"}, Tags: []string{"tag:router"}, Issuer: "https://token.actions.example",
				Subject: "repo:acme/*", CustomClaimRules: map[string]string{"repository_owner": "acme"}})
			must(t, err)
			strict[tsclient.Key](t, s, "id", "keyType", "created", "scopes", "tags", "audience", "issuer", "subject",
				"customClaimRules")
			if identity.KeyType != "federated" || identity.Key != "" || identity.Audience == "" ||
				identity.CustomClaimRules["repository_owner"] != "acme" {
				t.Fatalf("created federated identity %+v", identity)
			}
			changed, err := keys.SetFederatedIdentity(ctx, identity.ID, tsclient.SetFederatedIdentityRequest{
				Scopes: []string{"auth_keys"}, Tags: []string{"tag:router"}, Issuer: identity.Issuer,
				Audience: identity.Audience, Subject: "repo:acme/app", Description: "gov2"})
			must(t, err)
			strict[tsclient.Key](t, s, "id", "subject", "audience", "updated")
			if changed.Subject != "repo:acme/app" || changed.Audience != identity.Audience {
				t.Fatalf("updated federated identity %+v", changed)
			}
			must(t, keys.Delete(ctx, identity.ID))
			gone(t, s, identity.ID)
			if _, err := keys.Get(ctx, "kNOSUCHCNTRL"); !tsclient.IsNotFound(err) {
				t.Fatalf("an unknown key: want 404, got %v", err)
			}
		})
	}
}

// revoked checks that a deleted key reads as invalid (the provider's tailscale_tailnet_key then recreates it) or
// is gone.
func revoked(t *testing.T, s session, id string) {
	t.Helper()
	key, err := s.c.Keys().Get(context.Background(), id)
	if err == nil {
		strict[tsclient.Key](t, s, "revoked", "invalid")
		if !key.Invalid || key.Revoked.IsZero() {
			t.Fatalf("a deleted key reads as valid: %+v", key)
		}
	} else if !tsclient.IsNotFound(err) {
		t.Fatalf("a deleted key: want invalid or 404, got %v", err)
	}
}

// gone checks that a deleted client or identity reads 404, which the provider takes for "removed", and is not listed.
func gone(t *testing.T, s session, id string) {
	t.Helper()
	if key, err := s.c.Keys().Get(context.Background(), id); !tsclient.IsNotFound(err) {
		t.Fatalf("a deleted client: want 404, got %+v, %v", key, err)
	}
	listed, err := s.c.Keys().List(context.Background(), true)
	must(t, err)
	if slices.ContainsFunc(listed, func(k tsclient.Key) bool { return k.ID == id }) {
		t.Fatalf("a deleted client is still listed: %v", listed)
	}
}

// TestIdentityFederation authenticates as a federated identity: the client exchanges an ID token from a real OIDC
// issuer at /oauth/token-exchange and uses the access token as Bearer, bounded by the identity's scopes.
func TestIdentityFederation(t *testing.T) {
	base, id, token := os.Getenv("MESH_BASE_URL"), os.Getenv("MESH_FEDERATED_CLIENT_ID"), os.Getenv("MESH_ID_TOKEN")
	if base == "" || id == "" {
		t.Skip("MESH_BASE_URL or MESH_FEDERATED_CLIENT_ID is not set: run through VendorGoClientInteropTest")
	}
	u, err := url.Parse(base)
	must(t, err)
	rec := &recorder{}
	c := &tsclient.Client{BaseURL: u, HTTP: &http.Client{Transport: rec, Timeout: time.Minute},
		Auth: &tsclient.IdentityFederation{ClientID: id, IDTokenFunc: func() (string, error) { return token, nil }}}
	s := session{c: c, rec: rec}
	ctx := context.Background()
	devices, err := c.Devices().List(ctx)
	must(t, err)
	strict[map[string][]tsclient.Device](t, s, deviceKeys...)
	if len(devices) == 0 {
		t.Fatal("no devices")
	}
	// The identity holds devices:core:read only: writing is refused with the vendor's 403.
	if err := c.Devices().SetName(ctx, devices[0].ID, "nope"); status(err) != http.StatusForbidden {
		t.Fatalf("a write beyond the identity's scopes: want 403, got %v", err)
	}
}
