package io.meshcontrol.server.relay;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.crypto.Sha256;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.state.FetchedDocuments;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.SavedDerpSettings;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.relay.map.DerpMapMerge;
import io.meshcontrol.relay.map.DerpMapSources;
import io.meshcontrol.relay.map.EmbeddedRegion;
import io.meshcontrol.relay.map.MapLayer;
import io.meshcontrol.relay.map.MapSourceException;
import io.meshcontrol.relay.map.UrlMap;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The DERP settings in force and what follows from them: the relay's switches, the map sources and the DERP map every
 * node gets. A change is checked whole before anything is saved (settings, map URLs fetched, STUN bound), then saved
 * with its audit entry ({@link SavedDerpSettings}), then applied, and the new map goes to every connected node as a delta.
 * <p>
 * The maps at map URLs are the network's: each one fetched is stored ({@link FetchedDocuments}) and every instance
 * uses the stored copy, from the start on (offline too). The scheduled refresh fetches where the singleton lease is
 * held, a URL whose stored copy is {@code update_frequency} old; a settings change, a reset and {@code svc derp
 * refresh} fetch on the instance that got the call; with {@code auto_update} off each start fetches. Map files are
 * each instance's own and are reread by each.
 */
public final class DerpConfiguration {

    private static final System.Logger LOG = System.getLogger(DerpConfiguration.class.getName());
    /** The prefix of the names the URL maps are stored under. */
    static final String DOCUMENT_PREFIX = "derp-map:";
    private static final Duration CHECK_AT_MOST_EVERY = Duration.ofMinutes(1);

    /**
     * The settings in force.
     *
     * @param etag a hash of the settings, quoted as HTTP writes it
     * @param saved whether they were saved at runtime (false: the configuration file's)
     */
    public record Current(DerpSettings settings, String etag, boolean saved) {
    }

    private final SavedDerpSettings savedSettings;
    private final DerpSettings defaults;
    private final DerpMapSources sources;
    private final EmbeddedRelay relay;
    private final Function<DerpSettings, Optional<EmbeddedRegion>> embeddedRegion;
    private final Consumer<DERPMap> publish;
    private final ScheduledExecutorService scheduler;
    private final FetchedDocuments documents;
    private final Lease lease;
    private volatile Current current;
    /** When the map files were last read (System.nanoTime). */
    private volatile long filesReadAt = System.nanoTime();
    private volatile DERPMap map;
    private ScheduledFuture<?> refreshTask;

    /**
     * @param defaults the configuration file's settings, in force until settings are saved
     * @param embeddedRegion the embedded relay's region under given settings, once the listener is bound
     * @param publish receives every new map (for the map sessions and {@code /bootstrap-dns})
     * @param documents where the maps fetched from URLs are kept for every instance
     * @param lease the singleton lease: the scheduled refresh of map URLs runs where it is held
     */
    public DerpConfiguration(SavedDerpSettings savedSettings, DerpSettings defaults, DerpMapSources sources,
            EmbeddedRelay relay, Function<DerpSettings, Optional<EmbeddedRegion>> embeddedRegion,
            Consumer<DERPMap> publish, ScheduledExecutorService scheduler, FetchedDocuments documents, Lease lease) {
        this.documents = documents;
        this.lease = lease;
        this.savedSettings = savedSettings;
        this.defaults = defaults;
        this.sources = sources;
        this.relay = relay;
        this.embeddedRegion = embeddedRegion;
        this.publish = publish;
        this.scheduler = scheduler;
    }

    /**
     * Puts the saved settings (or the configuration's) into force: binds STUN, publishes the map with the stored
     * copies of the URL maps, and fetches in the background what is due (a server must start without the internet;
     * the map grows when they arrive).
     */
    public synchronized void start() {
        savedSettings.onSavedElsewhere(() -> scheduler.execute(this::followSaved));
        documents.onFetchedElsewhere(DOCUMENT_PREFIX, (name, stored) -> scheduler.execute(() -> followFetched(name)));
        Optional<DerpSettings> stored = savedSettings.read();
        DerpSettings settings = stored.orElse(defaults);
        relay.start(settings);
        current = new Current(settings, SavedDerpSettings.etag(settings), stored.isPresent());
        adoptStored(settings.urls());
        schedule(settings, false); // the first refresh is the lease's, below
        publishMap();
        if (!settings.autoUpdate() && !settings.urls().isEmpty()) {
            scheduler.execute(() -> refreshSources(settings.urls()));
        }
        // At once where the lease is held already; once the settings are in force, since it reads them.
        lease.whenTaken(scheduler, this::refreshDueSafely);
    }

    /** The name a URL's map is stored under: a hash, so that credentials in the URL are written nowhere else. */
    static String documentName(String url) {
        return DOCUMENT_PREFIX + Sha256.hex(url, 16);
    }

    /** Puts in force the stored maps of those of {@code urls} that have none yet here. */
    private void adoptStored(List<String> urls) {
        for (String url : urls) {
            if (sources.map(url).isEmpty()) {
                documents.read(documentName(url)).ifPresent(stored -> adopt(url, stored.body()));
            }
        }
    }

    private void adopt(String url, String json) {
        try {
            sources.adopt(url, UrlMap.read(url, json));
        } catch (MapSourceException e) {
            LOG.log(Level.WARNING, "the stored copy of a DERP map is not used: " + e.getMessage());
        }
    }

    /** Another instance stored a URL's map: put in force here if the URL is. */
    private synchronized void followFetched(String name) {
        for (String url : current.settings().urls()) {
            if (documentName(url).equals(name)) {
                documents.read(name).ifPresent(stored -> adopt(url, stored.body()));
                publishMap();
            }
        }
    }

    /** Stores the maps in force of {@code urls}, just fetched here, for every instance. */
    private void store(Collection<String> urls) {
        for (String url : urls) {
            sources.map(url).ifPresent(map -> documents.save(documentName(url), map.json()));
        }
    }

    /**
     * Puts in force the settings another instance saved or forgot (several instances on PostgreSQL): as a change made
     * here, with the URL maps that instance fetched and stored.
     */
    private synchronized void followSaved() {
        Optional<DerpSettings> stored = savedSettings.read();
        DerpSettings settings = stored.orElse(defaults);
        if (settings.equals(current.settings()) && stored.isPresent() == current.saved()) {
            return;
        }
        adoptStored(settings.urls());
        putInForce(settings, stored.isPresent(), relay.prepare(settings));
    }

    /** Sends the map again, for a change of the relay itself (STUN bound after a retry). */
    public synchronized void republish() {
        publishMap();
    }

    /**
     * The settings in force as {@code caller} may see them (map URL credentials hidden from everyone), with the ETag
     * of the settings in force for a writer, who writes with it, and of what is shown for a mere reader: a hash of
     * hidden credentials would let a reader test guesses of them.
     */
    public Current get(Caller caller) {
        return shownTo(caller, current);
    }

    private static Current shownTo(Caller caller, Current now) {
        DerpSettings shown = SavedDerpSettings.shownTo(caller, now.settings());
        return caller.may(SavedDerpSettings.WRITE_SCOPE) || shown.equals(now.settings())
                ? new Current(shown, now.etag(), now.saved())
                : new Current(shown, SavedDerpSettings.etag(shown), now.saved());
    }

    /** The settings in force, for the server's own use. */
    public Current current() {
        return current;
    }

    /** The configuration file's settings: what a reset puts back, and what a PUT leaves out. */
    public DerpSettings defaults() {
        return defaults;
    }

    /** The DERP map in force. */
    public DERPMap map() {
        return map;
    }

    /**
     * Replaces the settings.
     *
     * @param ifMatch the ETag the caller read, {@code *} for any, or null to write unconditionally
     */
    public synchronized Current set(Caller caller, DerpSettings asked, String ifMatch) {
        caller.require(SavedDerpSettings.WRITE_SCOPE);
        // Map URLs sent back as read keep the hidden parts of the URLs in force.
        DerpSettings proposed = asked.withHiddenPartsFrom(current.settings().urls());
        proposed.validated(relay.regionId()); // before the map URLs are fetched; the save checks again
        Map<String, UrlMap> fetched;
        try {
            fetched = sources.fetchAdded(proposed.urls(), current.settings().urls());
        } catch (MapSourceException e) {
            throw MeshException.invalid("nothing was changed: " + e.getMessage());
        }
        EmbeddedRelay.Change change = relay.prepare(proposed);
        try {
            // The precondition is checked against the saved settings under the writer, as part of the save.
            savedSettings.update(caller, defaults, ifMatch, inForce -> proposed, relay.regionId());
        } catch (RuntimeException e) {
            change.abandon();
            throw e;
        }
        List<String> fresh = fetched.keySet().stream().filter(url -> sources.map(url).isEmpty()).toList();
        sources.keep(fetched);
        store(fresh);
        return shownTo(caller, putInForce(proposed, true, change));
    }

    /**
     * Forgets the saved settings: the configuration file's are in force again. Their map URLs are fetched as far as
     * they can be (a reset is never refused for an unreachable map source).
     */
    public synchronized Current reset(Caller caller, String ifMatch) {
        caller.require(SavedDerpSettings.WRITE_SCOPE);
        EmbeddedRelay.Change change = relay.prepare(defaults);
        try {
            savedSettings.forget(caller, defaults, ifMatch);
        } catch (RuntimeException e) {
            change.abandon();
            throw e;
        }
        List<String> before = current.settings().urls();
        adoptStored(defaults.urls());
        Current result = shownTo(caller, putInForce(defaults, false, change));
        if (!before.equals(defaults.urls())) {
            scheduler.execute(() -> refreshSources(defaults.urls()));
        }
        return result;
    }

    /**
     * Fetches the map URLs and rereads the map files now.
     *
     * @return one line per source that failed (each keeps its previous map)
     */
    public List<String> refresh(Caller caller) {
        caller.require(SavedDerpSettings.WRITE_SCOPE);
        return refreshSources(current.settings().urls());
    }

    private List<String> refreshSources(List<String> urls) {
        return refresh(urls, urls).problems();
    }

    /**
     * Fetches {@code urls}, rereads the files, stores what was fetched, and sends the new map if the settings in force
     * still list {@code inForce}.
     */
    private DerpMapSources.Refreshed refresh(List<String> urls, List<String> inForce) {
        DerpMapSources.Refreshed refreshed = sources.refresh(urls);
        filesReadAt = System.nanoTime();
        store(refreshed.fetched());
        synchronized (this) {
            if (current.settings().urls().equals(inForce)) {
                publishMap();
            }
        }
        return refreshed;
    }

    private void refreshDueSafely() {
        try {
            if (current.settings().autoUpdate()) {
                refreshDue();
            }
        } catch (RuntimeException e) { // a failed run must not end the schedule
            LOG.log(Level.ERROR, "DERP map refresh failed", e);
        }
    }

    /**
     * The scheduled refresh: where the lease is held, fetches each URL whose stored map is {@code update_frequency}
     * old (or that this instance failed to fetch that long ago); on every instance, rereads the map files as often.
     */
    private void refreshDue() {
        DerpSettings settings = current.settings();
        Duration every = settings.updateFrequency();
        List<String> due = lease.held() ? settings.urls().stream()
                .filter(url -> documents.due(documentName(url), every)).toList() : List.of();
        if (due.isEmpty() && System.nanoTime() - filesReadAt < every.toNanos()) {
            return;
        }
        DerpMapSources.Refreshed refreshed = refresh(due, settings.urls());
        due.stream().filter(url -> !refreshed.fetched().contains(url)).map(DerpConfiguration::documentName)
                .forEach(documents::failed);
    }

    private Current putInForce(DerpSettings settings, boolean saved, EmbeddedRelay.Change change) {
        relay.apply(change);
        boolean scheduleChanged = settings.autoUpdate() != current.settings().autoUpdate()
                || !settings.updateFrequency().equals(current.settings().updateFrequency());
        current = new Current(settings, SavedDerpSettings.etag(settings), saved);
        if (scheduleChanged) {
            schedule(settings, true);
        }
        publishMap();
        return current;
    }

    /** @param now whether the first check runs at once (a changed schedule) or after one turn */
    private void schedule(DerpSettings settings, boolean now) {
        if (refreshTask != null) {
            refreshTask.cancel(false);
            refreshTask = null;
        }
        if (settings.autoUpdate()) {
            // Checked at least every minute: the stored copies may have been fetched by another instance, or before
            // a restart, so when the next one is due is not known here.
            long tick = Math.min(settings.updateFrequency().toMillis(), CHECK_AT_MOST_EVERY.toMillis());
            refreshTask = scheduler.scheduleWithFixedDelay(this::refreshDueSafely, now ? 0 : tick, tick,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** Merges map URLs, map files, custom relays and the embedded region, in that order, and sends it. */
    private void publishMap() {
        DerpSettings settings = current.settings();
        List<MapLayer> layers = new ArrayList<>();
        layers.addAll(sources.layers(settings.urls()));
        Map<Integer, DERPRegion> own = new LinkedHashMap<>();
        for (DerpSettings.CustomRelay custom : settings.relays()) {
            own.put(custom.regionId(), customRegion(custom));
        }
        embeddedRegion.apply(settings).ifPresent(region -> own.put(region.regionId(), region.toWire()));
        layers.add(new MapLayer("relay settings", own, Set.of(), Map.of(), false));
        map = DerpMapMerge.merge(layers);
        publish.accept(map);
    }

    /** A relay of your own: one node named after the region, dialled at its host on 443 with STUN on 3478. */
    static DERPRegion customRegion(DerpSettings.CustomRelay relay) {
        DERPNode node = DERPNode.builder()
                .name(relay.regionId() + "a")
                .regionId(relay.regionId())
                .hostName(relay.host())
                .ipv4(relay.ipv4())
                .build();
        return new DERPRegion(relay.regionId(), relay.code(), relay.code(), 0, 0, false, false, List.of(node));
    }

    /** Stops the scheduled refresh (the scheduler itself belongs to the server). */
    public synchronized void stop() {
        if (refreshTask != null) {
            refreshTask.cancel(false);
        }
        LOG.log(Level.DEBUG, "DERP map refresh stopped");
    }
}
