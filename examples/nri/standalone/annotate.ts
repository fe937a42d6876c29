// An NRI plugin in TypeScript against an installed isulats: compile with `tsc -p .` (this
// directory's tsconfig.json) and run `node annotate.js --socket /var/run/nri/nri.sock`.
// Adds the annotation `nri.isulats.io/seen-by: annotate` and an environment variable
// NRI_ANNOTATED=1 to every container created.
import { adjustment, runPlugin, type CreateContainerReply, type Plugin, type nri } from 'isulats/nri';

class Annotate implements Plugin {
  createContainer(pod: nri.PodSandbox, container: nri.Container): CreateContainerReply {
    process.stderr.write(`annotating ${pod.namespace}/${pod.name}/${container.name}\n`);
    return { adjust: adjustment().addAnnotation('nri.isulats.io/seen-by', 'annotate').addEnv('NRI_ANNOTATED', '1').build() };
  }
}

await runPlugin(new Annotate(), { name: 'annotate', idx: '20' });
