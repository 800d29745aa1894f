/// One customer: what they have, what happened to them, and what support can do (by role).
enum CustomerTemplate {
    static let text = """
        <h1>Customer <span class="id">{{customerId}}</span></h1>
        <p class="meta">appAccountToken <code>{{appAccountToken}}</code> · since {{createdAt}}</p>
        <p class="meta"><a id="export" href="{{exportURL}}" download>Download export (JSON)</a></p>
        {{#mayAct}}
        <form method="post" action="/console/customer/sync" class="inline">
          <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
          <button type="submit" id="sync">Sync from Apple</button>
        </form>
        {{/mayAct}}

        <section aria-labelledby="subs">
          <h2 id="subs">Subscriptions</h2>
          {{#subscriptions}}
          <div class="card subscription" id="sub-{{originalTransactionId}}">
            <p><strong>{{productId}}</strong> · {{bundleId}} · {{environment}}</p>
            <p class="standing status-{{status}}">{{standing}}</p>
            <dl>
              <dt>Status</dt><dd class="status">{{status}}</dd>
              <dt>Expires</dt><dd class="expires">{{expires}}</dd>
              {{#renewal}}<dt>Renews</dt><dd class="renewal">{{renewal}}</dd>{{/renewal}}
              <dt>Original transaction</dt><dd><code>{{originalTransactionId}}</code></dd>
            </dl>
            {{#extendable}}{{#mayAct}}
            <form method="post" action="/console/customer/extend" class="row">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
              <input type="hidden" name="bundleId" value="{{bundleId}}"><input type="hidden" name="originalTransactionId" value="{{originalTransactionId}}">
              <label for="days-{{originalTransactionId}}">Extend by days</label>
              <input id="days-{{originalTransactionId}}" name="days" type="number" min="1" max="90" required value="7">
              <label for="reason-{{originalTransactionId}}">Reason</label>
              <select id="reason-{{originalTransactionId}}" name="reasonCode">
                <option value="1">Customer satisfaction</option><option value="3">Service issue or outage</option>
                <option value="2">Other</option><option value="0">Undeclared</option>
              </select>
              <button type="submit" class="extend">Extend renewal date</button>
            </form>
            {{/mayAct}}{{/extendable}}
          </div>
          {{/subscriptions}}
          {{^subscriptions}}<p>No subscriptions.</p>{{/subscriptions}}
        </section>

        <section aria-labelledby="purchases">
          <h2 id="purchases">Purchases</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Product</th><th scope="col">Type</th><th scope="col">Quantity</th><th scope="col">Purchased</th><th scope="col">Transaction</th></tr></thead>
            <tbody>
            {{#purchases}}<tr><td>{{productId}}</td><td>{{type}}</td><td>{{quantity}}</td><td>{{purchased}}</td><td><code>{{transactionId}}</code></td></tr>{{/purchases}}
            {{^purchases}}<tr><td colspan="5">No purchases held.</td></tr>{{/purchases}}
            </tbody>
          </table></div>
        </section>

        <section aria-labelledby="refunds">
          <h2 id="refunds">Refunds</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Decision</th><th scope="col">Product</th><th scope="col">Transaction</th><th scope="col">When</th><th scope="col">Revoke</th><th scope="col">Found in</th></tr></thead>
            <tbody>
            {{#refunds}}<tr><td>{{outcome}}</td><td>{{productId}}</td><td><code>{{transactionId}}</code></td><td>{{when}}</td><td>{{revoke}}</td><td>{{source}}</td></tr>{{/refunds}}
            {{^refunds}}<tr><td colspan="6">No refund decisions.</td></tr>{{/refunds}}
            </tbody>
          </table></div>
        </section>

        <section aria-labelledby="requests">
          <h2 id="requests">Consumption requests waiting</h2>
          {{#requests}}
          <div class="card">
            <p>Transaction <code>{{transactionId}}</code> ({{productType}}) · reason {{reason}} · answer by <strong>{{deadline}}</strong></p>
            {{#mayAct}}
            <form method="post" action="/console/customer/consumption" class="row">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
              <input type="hidden" name="bundleId" value="{{bundleId}}"><input type="hidden" name="transactionId" value="{{transactionId}}">
              <label><input type="checkbox" name="customerConsented" value="true"> Customer consented</label>
              <label for="delivery-{{id}}">Delivery</label>
              <select id="delivery-{{id}}" name="deliveryStatus">{{#deliveryStatuses}}<option>{{.}}</option>{{/deliveryStatuses}}</select>
              <label><input type="checkbox" name="sampleContentProvided" value="true"> Sample content provided</label>
              <label for="consumed-{{id}}">Consumed %</label>
              <input id="consumed-{{id}}" name="consumedPercent" type="number" min="0" max="100">
              <label for="preference-{{id}}">Refund preference</label>
              <select id="preference-{{id}}" name="refundPreference"><option value="">None</option>{{#refundPreferences}}<option>{{.}}</option>{{/refundPreferences}}</select>
              <button type="submit">Send to Apple</button>
            </form>
            {{/mayAct}}
          </div>
          {{/requests}}
          {{^requests}}<p>None waiting.</p>{{/requests}}
        </section>

        <section aria-labelledby="grants">
          <h2 id="grants">Grants</h2>
          <div class="scroll"><table>
            <thead><tr><th scope="col">Access to</th><th scope="col">From</th><th scope="col">Until</th><th scope="col">Reason</th><th scope="col">By</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
            {{#grants}}<tr class="grant"><td>{{target}}</td><td>{{starts}}</td><td>{{expires}}</td><td>{{reason}}</td><td>{{grantedBy}}</td><td>{{state}}</td><td>
            {{#revocable}}<form method="post" action="/console/customer/revoke-grant" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}"><input type="hidden" name="grantId" value="{{grantId}}">
              <button type="submit">Revoke</button></form>{{/revocable}}</td></tr>{{/grants}}
            {{^grants}}<tr><td colspan="7">No grants.</td></tr>{{/grants}}
            </tbody>
          </table></div>
          {{#mayAct}}
          <form method="post" action="/console/customer/grant" class="card row" id="grant-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
            <label for="entitlement">Entitlement</label>
            <input id="entitlement" name="entitlement" maxlength="100" placeholder="premium">
            <span>or</span>
            <label for="grant-bundle">App</label>
            <select id="grant-bundle" name="bundleId"><option value="">—</option>{{#bundleIds}}<option>{{.}}</option>{{/bundleIds}}</select>
            <label for="grant-product">Product ID</label>
            <input id="grant-product" name="productId" maxlength="255">
            <label for="grant-days">Days</label>
            <input id="grant-days" name="days" type="number" min="1" max="365" required value="7">
            <label for="grant-reason">Reason</label>
            <input id="grant-reason" name="reason" required maxlength="500">
            <button type="submit" id="grant">Grant</button>
          </form>
          {{/mayAct}}
        </section>

        <section aria-labelledby="notes-heading">
          <h2 id="notes-heading">Notes and attributes</h2>
          <ol class="notes" id="notes">
          {{#notes}}<li class="note"><p class="meta"><time>{{when}}</time> · {{author}}</p><p class="text">{{text}}</p>
            {{#mayAct}}<form method="post" action="/console/customer/delete-note" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}"><input type="hidden" name="noteId" value="{{noteId}}">
              <button type="submit" class="delete-note">Delete note</button></form>{{/mayAct}}</li>{{/notes}}
          {{^notes}}<li>No notes.</li>{{/notes}}
          </ol>
          {{#mayAct}}
          <form method="post" action="/console/customer/add-note" class="card" id="note-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
            <label for="note-text">Note</label>
            <textarea id="note-text" name="text" required maxlength="4000" rows="3"></textarea>
            <button type="submit" id="add-note">Add note</button>
          </form>
          {{/mayAct}}
          <div class="scroll"><table id="attributes">
            <thead><tr><th scope="col">Attribute</th><th scope="col">Value</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
            <tbody>
            {{#attributes}}<tr class="attribute"><td><code>{{key}}</code></td><td>{{value}}</td><td>
            {{#mayAct}}<form method="post" action="/console/customer/attributes" class="inline">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}"><input type="hidden" name="remove" value="{{key}}">
              <button type="submit">Remove</button></form>{{/mayAct}}</td></tr>{{/attributes}}
            {{^attributes}}<tr><td colspan="3">No attributes.</td></tr>{{/attributes}}
            </tbody>
          </table></div>
          {{#mayAct}}
          <form method="post" action="/console/customer/attributes" class="card row" id="attribute-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
            <label for="attribute-key">Attribute</label>
            <input id="attribute-key" name="key" required maxlength="64" pattern="[A-Za-z0-9_.:\\-]+" placeholder="plan">
            <label for="attribute-value">Value</label>
            <input id="attribute-value" name="value" required maxlength="500">
            <button type="submit" id="set-attribute">Set</button>
          </form>
          {{/mayAct}}
        </section>

        <section aria-labelledby="timeline">
          <h2 id="timeline">Timeline</h2>
          <p class="hint">Newest first.</p>
          <ol class="timeline">
          {{#timeline}}<li class="event"><time>{{when}}</time> <span class="sentence">{{sentence}}</span>
            <details><summary>Details</summary><dl class="ids"><dt>Event</dt><dd><code>{{type}}</code> <code>{{eventId}}</code></dd>
            {{#identifiers}}<dt>{{name}}</dt><dd><code>{{value}}</code></dd>{{/identifiers}}</dl></details></li>{{/timeline}}
          {{^timeline}}<li>Nothing yet.</li>{{/timeline}}
          </ol>
          <nav class="pager" aria-label="Timeline pages">
          {{#timelineLater}}<a href="{{timelineLater}}" id="later-events" rel="prev">Later events</a>{{/timelineLater}}
          {{#timelineEarlier}}<a href="{{timelineEarlier}}" id="earlier-events" rel="next">Earlier events</a>{{/timelineEarlier}}
          </nav>
        </section>
        {{#mayErase}}

        <section aria-labelledby="erase-heading" class="danger">
          <h2 id="erase-heading">Erase this customer</h2>
          <p>For a request to be forgotten (GDPR Art. 17, CCPA): their links, grants, notes and attributes are deleted; their purchases,
          refunds and events are kept without them, as Apple's questions need. It cannot be undone.</p>
          <form method="post" action="/console/customer/erase" class="card" id="erase-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="customerId" value="{{customerId}}">
            <label for="erase-confirm">Type the customer id to confirm</label>
            <input id="erase-confirm" name="confirm" required autocomplete="off">
            <button type="submit" id="erase">Erase {{customerId}}</button>
          </form>
        </section>
        {{/mayErase}}
        """
}

/// A tenant's console users (admins only).
enum PeopleTemplate {
    static let text = """
        <h1>People</h1>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Password</th><th scope="col">Last sign-in</th></tr></thead>
          <tbody>
          {{#people}}<tr><td>{{email}}</td><td>{{role}}</td><td>{{password}}</td><td>{{lastSignIn}}</td></tr>{{/people}}
          </tbody>
        </table></div>
        <p class="hint">Add and remove people with <code>storegate user add|remove --tenant … --email … --role viewer|support|admin</code>.</p>
        """
}
