package dev.dictum.gpu;

/** A weight made resident on a backend by {@link Backend#upload}; lives as long as the backend. */
public interface Weight {

    HostTensor source();

    default long rows() {
        return source().rows();
    }

    default long cols() {
        return source().cols();
    }
}
