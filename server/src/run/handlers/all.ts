/** Loads every statement handler: each file registers its forms when imported. */
import './probability.js';
import './mpe.js';
import './sensitivity.js';
import './independent.js';
import './learn.js';
import './learnStructure.js';
import './estimate.js';
