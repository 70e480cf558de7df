/** Every statement handler, registered at module load; execute.ts imports this once. */
import './learn.js';
import './learnStructure.js';
import './estimate.js';
