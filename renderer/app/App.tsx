export function App() {
  return <main>Keel</main>;
}
