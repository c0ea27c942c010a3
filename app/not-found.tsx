export default function NotFound() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-2 px-4 py-24 text-center">
      <p className="text-xs font-medium tracking-wide text-muted uppercase">404</p>
      <h1 className="text-lg font-semibold">This page does not exist</h1>
      <a href="/" className="text-[13px] text-accent hover:underline">
        Back to the overview
      </a>
    </main>
  );
}
