package io.meshcontrol.relay.map;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The DERP maps read from {@code derp.paths} files and fetched from map URLs, each kept as its last good layer: a
 * source that cannot be read or reached at a refresh leaves its previous map in force. A URL's map may also be one
 * fetched elsewhere ({@link #adopt}): by another instance, or before a restart.
 */
public final class DerpMapSources {

    private static final System.Logger LOG = System.getLogger(DerpMapSources.class.getName());

    private final MapUrlFetcher fetcher;
    private final List<Path> files;
    private Map<String, UrlMap> byUrl = new HashMap<>();
    private List<MapLayer> fileLayers;

    /** Reads every file now: a file that cannot be used stops the server from starting, naming the file. */
    public DerpMapSources(MapUrlFetcher fetcher, List<Path> files) {
        this.fetcher = fetcher;
        this.files = List.copyOf(files);
        this.fileLayers = this.files.stream().map(DerpMapFile::read).toList();
    }

    /**
     * Fetches each of {@code urls} that is not in force yet, failing on the first that cannot be fetched: what a
     * settings change does before anything is saved. A URL already in force keeps its map without a refetch, or stays
     * without one until a refresh reaches it, so a change that adds no URL fetches nothing (and works offline).
     * Nothing is kept yet.
     *
     * @param inForce the URLs of the settings in force
     */
    public synchronized Map<String, UrlMap> fetchAdded(List<String> urls, List<String> inForce) {
        Map<String, UrlMap> layers = new LinkedHashMap<>();
        for (String url : urls) {
            UrlMap known = byUrl.get(url);
            if (known != null) {
                layers.put(url, known);
            } else if (!inForce.contains(url)) {
                layers.put(url, fetcher.fetch(url));
            }
        }
        return layers;
    }

    /** Makes {@code layers} the URL maps in force; maps of URLs no longer listed are forgotten. */
    public synchronized void keep(Map<String, UrlMap> layers) {
        byUrl = new HashMap<>(layers);
    }

    /** Puts {@code map} in force for {@code url}: one fetched elsewhere. */
    public synchronized void adopt(String url, UrlMap map) {
        byUrl.put(url, map);
    }

    /** The map in force for {@code url}, if it was ever fetched. */
    public synchronized Optional<UrlMap> map(String url) {
        return Optional.ofNullable(byUrl.get(url));
    }

    /**
     * What a refresh did.
     *
     * @param fetched the URLs fetched successfully
     * @param problems one line per source that failed (each keeps its previous map)
     */
    public record Refreshed(Set<String> fetched, List<String> problems) {
    }

    /**
     * Fetches every one of {@code urls} and rereads every file again. A source that fails keeps its previous map and
     * is logged; a URL never fetched successfully contributes nothing until it works.
     */
    public Refreshed refresh(List<String> urls) {
        List<String> problems = new ArrayList<>();
        Map<String, UrlMap> fetched = new LinkedHashMap<>();
        for (String url : urls) {
            try {
                fetched.put(url, fetcher.fetch(url));
            } catch (MapSourceException e) {
                problems.add(e.getMessage());
            }
        }
        List<MapLayer> reread = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < files.size(); i++) {
                try {
                    reread.add(DerpMapFile.read(files.get(i)));
                } catch (MapSourceException e) {
                    problems.add(e.getMessage() + "; keeping its previous map");
                    reread.add(fileLayers.get(i));
                }
            }
            fileLayers = List.copyOf(reread);
            // Added, not replaced: a settings change may have kept other URLs while this refresh ran.
            byUrl.putAll(fetched);
        }
        problems.forEach(problem -> LOG.log(Level.WARNING, problem));
        return new Refreshed(Set.copyOf(fetched.keySet()), List.copyOf(problems));
    }

    /** The layers in merge order: the URL maps in the order listed, then the files in the order configured. */
    public synchronized List<MapLayer> layers(List<String> urls) {
        List<MapLayer> layers = new ArrayList<>();
        for (String url : urls) {
            UrlMap map = byUrl.get(url);
            if (map != null) {
                layers.add(map.layer());
            }
        }
        layers.addAll(fileLayers);
        return layers;
    }
}
