package io.meshcontrol.api;

import java.util.List;

/**
 * Body of {@code POST /api/v1/auth/register}: complete the interactive login {@code authId} for {@code user}, or for
 * {@code tags} instead (the machine then belongs to them).
 *
 * @param tags absent or empty: the machine is {@code user}'s
 * @param approve with device approval on, let the machine in at once (absent: false, it waits for approval)
 */
public record AuthRegisterRequest(String user, String authId, List<String> tags, Boolean approve) {

    public AuthRegisterRequest(String user, String authId) {
        this(user, authId, null, null);
    }
}
