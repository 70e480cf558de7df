/** Every statement handler; importing this module registers them all. */
import './posterior.js';
import './map.js';
import './ml.js';
import './mdl.js';
import './size.js';
