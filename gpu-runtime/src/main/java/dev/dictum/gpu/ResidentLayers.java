package dev.dictum.gpu;

/**
 * {@link LayerTurns} where every layer stays resident: each weight uploaded once by
 * {@link Backend#upload}, so a pass needs nothing brought in (the CPU, and a GPU with room).
 */
public final class ResidentLayers implements LayerTurns {
    private final Weight[][] weights;

    public ResidentLayers(Backend backend, HostTensor[][] layers) {
        weights = new Weight[layers.length][];
        for (int i = 0; i < layers.length; i++) {
            weights[i] = new Weight[layers[i].length];
            for (int j = 0; j < layers[i].length; j++) {
                weights[i][j] = backend.upload(layers[i][j]);
            }
        }
    }

    @Override
    public Weight[] weights(int layer) {
        return weights[layer];
    }

    @Override
    public void begin() {
    }

    @Override
    public void enter(int layer) {
    }

    @Override
    public long hostBytes() {
        return 0;
    }

    @Override
    public void close() {
        // the weights live as long as the backend, as every uploaded weight does
    }
}
