package io.meshcontrol.server;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.netmap.MapSessions;
import io.meshcontrol.core.netmap.RouterProbes;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.wire.SSHEventNotifyRequest;
import io.meshcontrol.core.wire.SetDNSRequest;
import io.meshcontrol.server.control.ClientReleases;
import io.meshcontrol.server.control.ControlTransport;
import io.meshcontrol.server.control.MapEndpoint;
import io.meshcontrol.server.control.ProbeAnswerEndpoint;
import io.meshcontrol.server.control.RegisterEndpoint;
import io.meshcontrol.server.control.SetDnsEndpoint;
import io.meshcontrol.server.control.SshActionEndpoint;
import io.meshcontrol.server.control.TailnetLockEndpoints;
import io.meshcontrol.server.control.SshRecordingFailureEndpoint;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.metrics.MapMetrics;
import io.meshcontrol.server.nodecerts.ChallengeRecords;
import java.time.Clock;
import java.time.Duration;

/**
 * The control protocol: the ts2021 transport ({@code /key}, {@code /ts2021}) and its {@code /machine/*} endpoints,
 * map streaming, router probes (high availability) and the lookup of the latest client release, which goes into the
 * network's map context like every other part of it.
 *
 * @param access the access rules map streams use (the debug pages show the same compilation)
 * @param mapInputs what maps are built from (the node access routes preview them)
 */
record ControlWiring(ControlTransport transport, AccessControl access, MapInputs.Source mapInputs,
                     MapSessions mapSessions) {

    static ControlWiring start(Wiring w, RequestPipeline pipeline, MachinePrivateKey noiseKey) {
        ServerSettings settings = w.settings();
        Network network = w.network();
        Clock clock = w.clock();
        ControlTransport control = new ControlTransport(noiseKey, pipeline, clock);
        control.register(w.routes());
        AccessControl accessControl = new AccessControl(network.policies(), settings.serverUrl(), settings.funnel(),
                settings.recordingFailuresReported());
        MapInputs.Source mapInputs = MapInputs.Source.from(network, accessControl, clock);
        MapSessions mapSessions = new MapSessions(network.snapshots(), mapInputs,
                settings.control().keepAlive(), new MapMetrics(w.registry()));
        // Routers sharing a prefix are probed over their control connection (high availability).
        MeshConfig.Routes ha = settings.control().routes();
        RouterProbes probes = new RouterProbes(mapSessions, network.routeElection(), settings.serverUrl(),
                ha.haProbeTimeout(), w.housekeeping()).every(ha.ha() ? ha.haProbeInterval() : Duration.ZERO);
        control.machineRoutes()
                .add("POST", "/machine/register", new RegisterEndpoint(network.registrations(), network.pendingLogins(),
                        settings.serverUrl(), clock, network.tailnetLock()::ownSignature))
                .add("POST", "/machine/map", new MapEndpoint(network.snapshots(), network.presence(), network.nodes(),
                        mapSessions))
                .add("POST", SSHEventNotifyRequest.NOTIFY_PATH, new SshRecordingFailureEndpoint(network.nodes()))
                .add("GET", SshActionEndpoint.PATH,
                        new SshActionEndpoint(network.sshChecks(), accessControl::sshCheckPeriod, settings.serverUrl()))
                .add("HEAD", RouterProbes.ANSWER_PATH, new ProbeAnswerEndpoint(network.snapshots(), probes))
                .add("POST", SetDNSRequest.PATH, new SetDnsEndpoint(network.snapshots(), network.mapContext(),
                        ChallengeRecords.from(settings.httpsCertificates(), settings.baseDomain(), clock,
                                w.housekeeping()), clock));
        new TailnetLockEndpoints(network.tailnetLock(), network.snapshots()).register(control.machineRoutes());
        var updates = settings.control().clientUpdates();
        if (updates.check()) {
            // The map context publishes a new release itself: every stream then tells its client.
            new ClientReleases(updates.url(), settings.derpMaps().egress(), settings.derpMaps().resolver())
                    .schedule(w.housekeeping(), updates.interval(), w.singleton(), network.fetchedDocuments(),
                            network.mapContext()::latestClientVersion);
        }
        return new ControlWiring(control, accessControl, mapInputs, mapSessions);
    }
}
