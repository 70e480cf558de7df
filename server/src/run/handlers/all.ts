/** Every statement handler; importing this module registers them all. */
import './posterior.js';
import './map.js';
import './ml.js';
import './mdl.js';
import './size.js';
import './optimal.js';
import './gibbs.js';
import './classify.js';
import './evaluate.js';
import './accuracy.js';
import './learning_curve.js';
import './mean.js';
import './mode.js';
import './interval.js';
import './bound.js';
import './bic.js';
import './likelihood.js';
