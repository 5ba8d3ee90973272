package io.meshcontrol.cli;

import io.meshcontrol.api.HumanDuration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A duration option as a person types it ({@code 30d}, {@code 2w}, {@code 90 days}, {@code 1h30m}), turned into the
 * Go syntax the {@code /api/v1} request takes ({@link HumanDuration}).
 */
final class DurationOption implements ITypeConverter<String> {

    @Override
    public String convert(String value) {
        try {
            return HumanDuration.wire(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
