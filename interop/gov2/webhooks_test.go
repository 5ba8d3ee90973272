package gov2

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	tsclient "tailscale.com/client/tailscale/v2"
)

// webhookKeys are the fields the provider's tailscale_webhook resource reads, and the library's other ones.
var webhookKeys = []string{"endpointId", "endpointUrl", "providerType", "creatorLoginName", "created", "lastModified",
	"subscriptions"}

// delivery is one request that reached the receiver.
type delivery struct {
	signature string
	body      []byte
}

// receiver is a loopback webhook endpoint (the server runs with egress.allow_loopback_targets).
func receiver(t *testing.T) (*httptest.Server, <-chan delivery) {
	got := make(chan delivery, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- delivery{signature: r.Header.Get("Mesh-Webhook-Signature"), body: body}
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// signedWith checks the Mesh-Webhook-Signature header (docs/events.md): hex HMAC-SHA256 of "<t>.<body>".
func signedWith(secret string, d delivery) bool {
	var ts string
	var sigs []string
	for _, part := range strings.Split(d.signature, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(d.body)
	for _, s := range sigs {
		if got, err := hex.DecodeString(s); err == nil && hmac.Equal(got, mac.Sum(nil)) {
			return true
		}
	}
	return false
}

// message is the {"message"} of an API error.
func message(err error) string {
	var apiErr tsclient.APIError
	if errors.As(err, &apiErr) {
		return apiErr.Message
	}
	return ""
}

// noSecret checks that the last answer (one webhook, or a list of them) has no secret field.
func noSecret(t *testing.T, s session) {
	t.Helper()
	body := s.rec.body()
	var list map[string][]map[string]json.RawMessage
	if json.Unmarshal(body, &list) == nil && list["webhooks"] != nil {
		for _, w := range list["webhooks"] {
			if _, ok := w["secret"]; ok {
				t.Errorf("a listed webhook shows its secret: %s", body)
			}
		}
		return
	}
	var one map[string]json.RawMessage
	must(t, json.Unmarshal(body, &one))
	if _, ok := one["secret"]; ok {
		t.Errorf("the secret is shown outside create and rotate: %s", body)
	}
}

func TestWebhooks(t *testing.T) {
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			srv, deliveries := receiver(t)
			hooks := s.c.Webhooks()

			created, err := hooks.Create(ctx, tsclient.CreateWebhookRequest{
				EndpointURL:   srv.URL + "/hook",
				ProviderType:  tsclient.WebhookEmptyProviderType,
				Subscriptions: []tsclient.WebhookSubscriptionType{tsclient.WebhookNodeCreated, tsclient.WebhookUserDeleted},
			})
			must(t, err)
			strict[tsclient.Webhook](t, s, append(webhookKeys, "secret")...)
			if created.EndpointID == "" || created.EndpointURL != srv.URL+"/hook" || created.ProviderType != "" {
				t.Errorf("created: %+v", created)
			}
			if created.Secret == nil || *created.Secret == "" {
				t.Fatalf("no secret on create: %s", s.rec.body())
			}
			// creatorLoginName is present (strict checks the key) but empty here: neither caller is a user.
			if created.Created.IsZero() || created.LastModified.IsZero() {
				t.Errorf("created and lastModified are set: %s", s.rec.body())
			}
			if !slices.Equal(created.Subscriptions, []tsclient.WebhookSubscriptionType{"nodeCreated", "userDeleted"}) {
				t.Errorf("subscriptions: %v", created.Subscriptions)
			}
			id := created.EndpointID

			read, err := hooks.Get(ctx, id)
			must(t, err)
			strict[tsclient.Webhook](t, s, webhookKeys...)
			noSecret(t, s)
			if read.Secret != nil || read.EndpointURL != created.EndpointURL || !read.Created.Equal(created.Created) ||
				!slices.Equal(read.Subscriptions, created.Subscriptions) {
				t.Errorf("read %+v, created %+v", read, created)
			}

			listed, err := hooks.List(ctx)
			must(t, err)
			strict[map[string][]tsclient.Webhook](t, s, webhookKeys...)
			noSecret(t, s)
			if !slices.ContainsFunc(listed, func(w tsclient.Webhook) bool { return w.EndpointID == id }) {
				t.Errorf("%s is not listed: %+v", id, listed)
			}

			updated, err := hooks.Update(ctx, id, []tsclient.WebhookSubscriptionType{tsclient.WebhookPolicyUpdate})
			must(t, err)
			strict[tsclient.Webhook](t, s, webhookKeys...)
			noSecret(t, s)
			if !slices.Equal(updated.Subscriptions, []tsclient.WebhookSubscriptionType{"policyUpdate"}) ||
				updated.LastModified.Before(created.LastModified) {
				t.Errorf("updated: %+v", updated)
			}
			reread, err := hooks.Get(ctx, id)
			must(t, err)
			if !slices.Equal(reread.Subscriptions, updated.Subscriptions) {
				t.Errorf("the update was not kept: %v", reread.Subscriptions)
			}

			rotated, err := hooks.RotateSecret(ctx, id)
			must(t, err)
			strict[tsclient.Webhook](t, s, append(webhookKeys, "secret")...)
			if rotated.Secret == nil || *rotated.Secret == "" || *rotated.Secret == *created.Secret {
				t.Fatalf("rotate gives a new secret: %s", s.rec.body())
			}

			// The test event really goes out, signed with the rotated secret.
			must(t, hooks.Test(ctx, id))
			waited := time.After(time.Minute)
			for found := false; !found; {
				select {
				case d := <-deliveries:
					var events []map[string]any
					if err := json.Unmarshal(d.body, &events); err != nil {
						t.Fatalf("not a list of events: %v\n%s", err, d.body)
					}
					found = slices.ContainsFunc(events, func(e map[string]any) bool { return e["type"] == "test" })
					if found && !signedWith(*rotated.Secret, d) {
						t.Errorf("not signed with the rotated secret: %q\n%s", d.signature, d.body)
					}
				case <-waited:
					t.Fatal("the test event did not reach the receiver")
				}
			}

			must(t, hooks.Delete(ctx, id))
			if _, err := hooks.Get(ctx, id); status(err) != http.StatusNotFound {
				t.Errorf("deleted webhook: want 404, got %v", err)
			}
		})
	}
}

func TestWebhookProviderType(t *testing.T) {
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			srv, _ := receiver(t)
			created, err := s.c.Webhooks().Create(ctx, tsclient.CreateWebhookRequest{
				EndpointURL: srv.URL + "/slack", ProviderType: tsclient.WebhookSlackProviderType,
				Subscriptions: []tsclient.WebhookSubscriptionType{},
			})
			must(t, err)
			strict[tsclient.Webhook](t, s, append(webhookKeys, "secret")...)
			if created.ProviderType != tsclient.WebhookSlackProviderType || len(created.Subscriptions) != 0 {
				t.Errorf("created: %s", s.rec.body())
			}
			read, err := s.c.Webhooks().Get(ctx, created.EndpointID)
			must(t, err)
			if read.ProviderType != tsclient.WebhookSlackProviderType {
				t.Errorf("read: %s", s.rec.body())
			}
			must(t, s.c.Webhooks().Delete(ctx, created.EndpointID))
		})
	}
}

func TestWebhookErrors(t *testing.T) {
	for name, s := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			hooks := s.c.Webhooks()
			const unknown = "no-such-webhook"
			if _, err := hooks.Get(ctx, unknown); status(err) != http.StatusNotFound {
				t.Errorf("get unknown: want 404, got %v", err)
			}
			if _, err := hooks.Update(ctx, unknown, nil); status(err) != http.StatusNotFound {
				t.Errorf("update unknown: want 404, got %v", err)
			}
			if _, err := hooks.RotateSecret(ctx, unknown); status(err) != http.StatusNotFound {
				t.Errorf("rotate unknown: want 404, got %v", err)
			}
			if err := hooks.Test(ctx, unknown); status(err) != http.StatusNotFound {
				t.Errorf("test unknown: want 404, got %v", err)
			}
			if err := hooks.Delete(ctx, unknown); status(err) != http.StatusNotFound {
				t.Errorf("delete unknown: want 404, got %v", err)
			}

			srv, _ := receiver(t)
			bad := map[string]tsclient.CreateWebhookRequest{
				"link-local URL": {EndpointURL: "http://169.254.169.254/latest"},
				"not a URL":      {EndpointURL: "not a url"},
				"unknown event": {EndpointURL: srv.URL + "/hook",
					Subscriptions: []tsclient.WebhookSubscriptionType{"nodeExploded"}},
				"unknown provider": {EndpointURL: srv.URL + "/hook", ProviderType: "pager"},
			}
			for what, request := range bad {
				if _, err := hooks.Create(ctx, request); status(err) != http.StatusBadRequest {
					t.Errorf("%s: want 400, got %v", what, err)
				} else if message(err) == "" {
					t.Errorf("%s: the 400 carries no message", what)
				}
			}
			listed, err := hooks.List(ctx)
			must(t, err)
			for _, w := range listed {
				if w.EndpointURL == "http://169.254.169.254/latest" || w.EndpointURL == "not a url" {
					t.Errorf("a refused webhook was stored: %+v", w)
				}
			}

			kept, err := hooks.Create(ctx, tsclient.CreateWebhookRequest{EndpointURL: srv.URL + "/hook",
				Subscriptions: []tsclient.WebhookSubscriptionType{tsclient.WebhookNodeCreated}})
			must(t, err)
			if _, err := hooks.Update(ctx, kept.EndpointID, []tsclient.WebhookSubscriptionType{"nodeExploded"}); status(err) != http.StatusBadRequest {
				t.Errorf("update with an unknown event: want 400, got %v", err)
			}
			read, err := hooks.Get(ctx, kept.EndpointID)
			must(t, err)
			if !slices.Equal(read.Subscriptions, kept.Subscriptions) {
				t.Errorf("a refused update changed the subscriptions: %v", read.Subscriptions)
			}
			must(t, hooks.Delete(ctx, kept.EndpointID))
		})
	}
}
