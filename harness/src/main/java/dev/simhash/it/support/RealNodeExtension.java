package dev.simhash.it.support;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension giving IT classes one shared single-node cluster, started on first use and
 * stopped when the whole test run ends (also on failure). Declare an {@link EsCluster} or
 * {@link Rest} parameter in a constructor, lifecycle or test method to get it.
 */
public final class RealNodeExtension implements ParameterResolver, AfterTestExecutionCallback {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(RealNodeExtension.class);

    /** Holds the cluster in the root store, so JUnit closes it once after the last test class. */
    private static final class Shared implements ExtensionContext.Store.CloseableResource {
        final EsCluster cluster;
        volatile boolean failed;

        Shared(EsCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() {
            cluster.close();
            if (failed) {
                System.out.println("[simhash-it] a test failed: node logs are kept in " + cluster.dir());
            }
        }
    }

    private static Shared shared(ExtensionContext context) {
        return context.getRoot().getStore(NS).getOrComputeIfAbsent("single-node", k -> {
            try {
                return new Shared(RealNodes.start("single-node", 1));
            } catch (Exception e) {
                throw new IllegalStateException("could not start the real Elasticsearch node", e);
            }
        }, Shared.class);
    }

    @Override
    public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
        Class<?> type = pc.getParameter().getType();
        return type == EsCluster.class || type == Rest.class;
    }

    @Override
    public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
        EsCluster cluster = shared(ec).cluster;
        return pc.getParameter().getType() == EsCluster.class ? cluster : cluster.rest();
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            shared(context).failed = true;
        }
    }
}
