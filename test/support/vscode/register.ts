/** Import first: later imports of `vscode` get the fake (test/support/vscode/fake.ts). */
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
