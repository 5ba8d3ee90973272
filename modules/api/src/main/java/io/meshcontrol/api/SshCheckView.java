package io.meshcontrol.api;

import java.time.Instant;

/**
 * An SSH session held by a {@code check} rule, waiting for its decision (docs/policy.md, "SSH check mode").
 *
 * @param authId what {@code svc auth approve|reject --auth-id} takes; the check page's URL ends in it
 * @param srcOwner the user who owns the source machine: the person who must log in again
 * @param localUser the user the session logs in as on the destination
 * @param expiresAt when it lapses as a rejection if nobody decides
 */
public record SshCheckView(String authId, String srcNode, String srcOwner, String dstNode, String localUser,
        Instant requestedAt, Instant expiresAt) {
}
