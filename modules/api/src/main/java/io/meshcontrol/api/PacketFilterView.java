package io.meshcontrol.api;

import java.util.List;

/**
 * The packet filter a node's map gives it ({@code GET /api/v1/node/{id}/packet-filter}): who may reach it, on which
 * ports, in the order it checks them. No rules: it lets nothing in.
 */
public record PacketFilterView(List<FilterRuleView> rules) {
}
