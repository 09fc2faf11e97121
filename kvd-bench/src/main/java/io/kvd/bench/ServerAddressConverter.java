package io.kvd.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --servers}: one {@code host:port} of the comma-separated list. */
final class ServerAddressConverter implements ITypeConverter<ServerAddress> {
    @Override
    public ServerAddress convert(String text) {
        try {
            return ServerAddress.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
