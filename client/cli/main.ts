/**
 * The `cairn` command line. Today: `cairn tools`. (`run`, `ls`, `show`, `watch`, `answer` and
 * `cancel` build on the client library next.)
 */
import { Command } from 'commander';
import { ConfigError } from '../../config/config';
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { version } from '../../package.json';
import { formatTools, listConfiguredTools } from './tools-command';

const program = new Command('cairn').description('Durable plan-and-act agents on Temporal').version(version);

program
  .command('tools')
  .description('list the tools a worker with this configuration offers')
  .option('--json', 'print JSON for scripts')
  .action(async (options: { json?: boolean }) => {
    const tools = await listConfiguredTools(loadConfigOrExit());
    console.log(options.json ? JSON.stringify(tools, null, 2) : formatTools(tools));
  });

program.parseAsync().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
  process.exit(err instanceof ConfigError ? 2 : 1);
});
