package io.meshcontrol.core.routes;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** Nodes for the route rules' tests, with only what routing looks at set. */
final class Machines {

    private Machines() {
    }

    static List<IpPrefix> prefixes(String... texts) {
        return Arrays.stream(texts).map(IpPrefix::parse).toList();
    }

    /** An approved (authorized) node of user 1, or of {@code tags} when given. */
    static Node node(long id, List<String> tags, List<IpPrefix> advertised, List<IpPrefix> approved) {
        return new Node(id, "n" + id + "CNTRL", MachinePrivateKey.generate().publicKey(),
                NodePrivateKey.generate().publicKey(), null, "host" + id, "host" + id, tags.isEmpty() ? 1L : null, tags,
                "100.64.0." + id, "fd7a:115c:a1e0::" + id, "{}", List.of(), true, false, null,
                Node.RegisterMethod.AUTH_KEY, Instant.EPOCH, null, null, advertised, approved, false, null, false);
    }

    /** A user's node advertising and having approved the same routes. */
    static Node router(long id, String... routes) {
        return node(id, List.of(), prefixes(routes), prefixes(routes));
    }
}
