-- Subnet and exit routes. advertised_routes mirrors the RoutableIPs of the node's Hostinfo (kept apart so that
-- route decisions need no JSON parsing); approved_routes is what an administrator or an auto-approver allowed.
-- Both are space-separated CIDR prefixes. An approval may exist before the route is advertised.
ALTER TABLE nodes ADD COLUMN advertised_routes TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN approved_routes TEXT NOT NULL DEFAULT '';
