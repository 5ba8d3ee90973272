package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.MapContextState;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import java.time.Clock;
import java.time.Instant;

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

        private final Snapshots snapshots;
        private final RouteElection election;
        private final MapContextState context;
        private final AccessControl access;
        private final Clock clock;

        public Source(Snapshots snapshots, RouteElection election, MapContextState context, AccessControl access,
                Clock clock) {
            this.snapshots = snapshots;
            this.election = election;
            this.context = context;
            this.access = access;
            this.clock = clock;
        }

        /** The sources of {@code network}. */
        public static Source from(Network network, AccessControl access, Clock clock) {
            return new Source(network.snapshots(), network.routeElection(), network.mapContext(), access, clock);
        }

        /** The inputs as the network is now. */
        public MapInputs current() {
            return of(snapshot(), clock.instant());
        }

        /** The inputs for this snapshot (a batch's, which holds exactly the changes it names), sent at {@code now}. */
        MapInputs of(NetworkSnapshot snapshot, Instant now) {
            return new MapInputs(snapshot, access.rules(snapshot), election.current(), context.current(), now);
        }

        /** The snapshot as it is now. */
        NetworkSnapshot snapshot() {
            return snapshots.current();
        }

        Instant now() {
            return clock.instant();
        }
    }
}
