package io.meshcontrol.core.netmap;

import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * What a map message is built from: the nodes and users, whom the policy lets each see, who serves which route,
 * what every map carries besides nodes, and the time the message is sent at (its {@code ControlTime}, and when keys
 * count as expired).
 *
 * @param access the access rules compiled for {@code snapshot}
 * @param routes who serves which route now (the election, which follows presence, is not in the snapshot)
 */
public record MapInputs(NetworkSnapshot snapshot, AccessRules access, RouteTable routes, MapContext context,
        Instant now) {

    /** Where a server's map streams take their inputs from: the network as it is, its rules, the context in force. */
    public static final class Source {

        private final Network network;
        private final AccessControl access;
        private final Supplier<MapContext> context;
        private final Clock clock;

        /** @param context the map context in force (it changes when the relay map does) */
        public Source(Network network, AccessControl access, Supplier<MapContext> context, Clock clock) {
            this.network = network;
            this.access = access;
            this.context = context;
            this.clock = clock;
        }

        /** The inputs as the network is now. */
        public MapInputs current() {
            return of(snapshot(), clock.instant());
        }

        /** The inputs for this snapshot (a batch's, which holds exactly the changes it names), sent at {@code now}. */
        MapInputs of(NetworkSnapshot snapshot, Instant now) {
            return new MapInputs(snapshot, access.rules(snapshot), network.routeElection().current(), context.get(),
                    now);
        }

        /** The snapshot as it is now. */
        NetworkSnapshot snapshot() {
            return network.snapshots().current();
        }

        Instant now() {
            return clock.instant();
        }
    }
}
