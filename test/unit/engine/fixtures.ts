/** Small data sets printed in the textbooks (not from ../shared): PlayTennis, EnjoySport, Poole's news reading. */
import { encodeCategorical, type CategoricalDataset } from '../../../server/src/engine/categoricalData.js';

/** Mitchell Table 3.2. */
export function playTennis(): CategoricalDataset {
  const rows = `Sunny Hot High Weak No|Sunny Hot High Strong No|Overcast Hot High Weak Yes|Rain Mild High Weak Yes|Rain Cool Normal Weak Yes|Rain Cool Normal Strong No|Overcast Cool Normal Strong Yes|Sunny Mild High Weak No|Sunny Cool Normal Weak Yes|Rain Mild Normal Weak Yes|Sunny Mild Normal Strong Yes|Overcast Mild High Strong Yes|Overcast Hot Normal Weak Yes|Rain Mild High Strong No`;
  return encodeCategorical(
    ['Outlook', 'Temperature', 'Humidity', 'Wind', 'PlayTennis'],
    rows.split('|').map((r) => r.split(' ')),
    { PlayTennis: ['Yes', 'No'] },
  );
}

/** Mitchell Table 2.1 with the domains of §2.2. */
export const enjoySportDomains = {
  Sky: ['Sunny', 'Cloudy', 'Rainy'],
  AirTemp: ['Warm', 'Cold'],
  Humidity: ['Normal', 'High'],
  Wind: ['Strong', 'Weak'],
  Water: ['Warm', 'Cool'],
  Forecast: ['Same', 'Change'],
  EnjoySport: ['Yes', 'No'],
};
export function enjoySport(): CategoricalDataset {
  const rows = `Sunny Warm Normal Strong Warm Same Yes|Sunny Warm High Strong Warm Same Yes|Rainy Cold High Strong Warm Change No|Sunny Warm High Strong Cool Change Yes`;
  return encodeCategorical(
    Object.keys(enjoySportDomains),
    rows.split('|').map((r) => r.split(' ')),
    enjoySportDomains,
  );
}

/** Poole & Mackworth Figure 7.1 (examples e1..e18), used by ex. 10.4 and 10.6. */
export function newsReading(): CategoricalDataset {
  const rows = `known new long home skips|unknown new short work reads|unknown followUp long work skips|known followUp long home skips|known new short home reads|known followUp long work skips|unknown followUp short work skips|unknown new short work reads|known followUp long home skips|known new long work skips|unknown followUp short home skips|known new long work skips|known followUp short home reads|known new short work reads|known new short home reads|known followUp short work reads|known new short home reads|unknown new short work reads`;
  return encodeCategorical(
    ['Author', 'Thread', 'Length', 'WhereRead', 'UserAction'],
    rows.split('|').map((r) => r.split(' ')),
    { UserAction: ['reads', 'skips'] },
  );
}
