package io.meshcontrol.api;

/**
 * Body of {@code POST /api/v1/node/{id}/key-expiry}.
 *
 * @param disabled {@code true}: the node's key never expires; {@code false}: it expires after the key lifetime
 */
public record KeyExpiryRequest(Boolean disabled) {
}
