package io.meshcontrol.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/v1/overview}: the facts an administrator looks at first, counted by the server so that the answer
 * stays small however many machines there are.
 *
 * @param at when it was counted
 * @param soonWithin what "soon" means for expiring keys (Go syntax: {@code 168h}, seven days)
 * @param keys absent parts are those the caller may not read
 * @param relays one entry per region of the relay map, by region id
 * @param relayProblem what keeps the embedded relay's STUN from working, absent when nothing does
 */
public record OverviewView(Instant at, String soonWithin, Machines machines, Keys keys, List<Relay> relays,
        String relayProblem) {

    /**
     * @param updateAvailable machines whose client is older than {@code latestClientVersion}
     * @param latestClientVersion the latest client release the server knows of ({@code client_updates}); absent when
     *     it looks up none, and then no machine counts as out of date
     * @param keysExpiringSoon machine keys that expire within {@code soonWithin} (expiry not disabled)
     * @param keysExpired machine keys past their expiry: the machine must log in again
     */
    public record Machines(int total, int online, int waitingForApproval, int updateAvailable,
            String latestClientVersion, int keysExpiringSoon, int keysExpired) {
    }

    /** Valid keys that expire within {@code soonWithin}; absent when the caller may not read that kind. */
    public record Keys(Integer preAuthKeysExpiringSoon, Integer apiKeysExpiringSoon) {
    }

    /**
     * @param status {@code up}: machines measured it; {@code down}: machines measure relays but none reached it;
     *     {@code unknown}: no machine has reported measurements yet
     * @param medianMs median round trip of the machines that measured it; {@code null} (written out) when none did
     */
    public record Relay(int regionId, String code, String name, String status, int preferredBy, int reporting,
            @JsonInclude(JsonInclude.Include.ALWAYS) Double medianMs) {
    }
}
