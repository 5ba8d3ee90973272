package io.meshcontrol.server.control;

/**
 * The early payload's JSON ({@code tailcfg.EarlyNoise}): sent inside the Noise stream before HTTP/2 begins, to clients
 * of protocol version 49 and later.
 *
 * @param nodeKeyChallenge a fresh per-connection challenge key, {@code chalpub:<hex>}: the client can prove it holds
 *                         a node key by sealing a message to it
 */
public record EarlyNoise(String nodeKeyChallenge) {
}
