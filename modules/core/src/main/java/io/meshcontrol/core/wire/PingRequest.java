package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpAddress;

/**
 * A request that the client report back, in {@code MapResponse.PingRequest}: that it is alive, the result of pinging
 * a peer, or the answer to a control-to-node (c2n) HTTP request. Go: {@code tailcfg.PingRequest}. The client ignores
 * a request whose URL equals the previous one, so each needs a fresh URL.
 *
 * @param url where the client reports: {@code HEAD} when {@code types} is empty, {@code POST} with a
 *     {@link PingResponse} or the c2n HTTP response otherwise; always written
 * @param urlIsNoise send the report over the Noise connection instead of plain HTTPS; absent means false
 * @param log log the request on the client; absent means false
 * @param types comma-separated "disco", "TSMP", "ICMP", "peerapi", or "c2n"; absent means a plain HEAD to the URL
 * @param ip the peer address to ping; absent for c2n and plain reports
 * @param payload for "c2n": an HTTP/1.x request the client serves and answers at {@code url}; absent otherwise
 */
public record PingRequest(
        @JsonProperty("URL") String url,
        @JsonProperty("URLIsNoise") @OmitEmpty boolean urlIsNoise,
        @JsonProperty("Log") @OmitEmpty boolean log,
        @JsonProperty("Types") @OmitEmpty String types,
        @JsonProperty("IP") @OmitNull IpAddress ip,
        @JsonProperty("Payload") @OmitEmpty Base64Bytes payload) {

    public PingRequest {
        url = Copies.text(url);
        types = Copies.text(types);
        payload = Copies.orAbsent(payload);
    }
}
