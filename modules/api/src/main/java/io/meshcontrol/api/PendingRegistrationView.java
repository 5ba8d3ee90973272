package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A machine waiting for its interactive login ({@code tailscale up} without a key), as
 * {@code GET /api/v1/auth/register/{authId}} shows it to the administrator who may complete it.
 *
 * @param os the client's OS ("linux", "windows" ...); empty when it did not say
 * @param clientVersion the client's version in long form ("1.102.5-t..."); empty when unknown
 * @param nodeKey the node key it registers ({@code nodekey:...})
 * @param requestedTags tags it asked for ({@code tailscale up --advertise-tags})
 * @param expiresAt when the login link lapses
 * @param currentUser for a machine that is a node already (a new login of a known machine), its user; else null
 * @param currentTags for a known tagged machine, its tags
 * @param devicesApprovalOn device approval is on: the machine waits for approval unless approved in the same step
 * @param applicableTags the tags of the policy's {@code tagOwners} the caller may give it
 */
public record PendingRegistrationView(String authId, String hostname, String os, String osVersion,
        String clientVersion, String nodeKey, List<String> requestedTags, boolean ephemeral, Instant expiresAt,
        String currentUser, List<String> currentTags, boolean devicesApprovalOn, List<String> applicableTags) {
}
