// The turn's sound: a short chime that the player may ask for (off by default), rung by the table and by My matches
// when a decision comes while the tab is hidden. No file: Web Audio's oscillator.
export const SOUND_KEY = "flametable.sound";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    // no sound here: the title still says it
  }
}
